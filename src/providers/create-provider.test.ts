import { describe, expect, it } from 'vitest';
import { arkDescriptor } from './ark/index.js';
import { createProvider } from './create-provider.js';
import { lumaDescriptor } from './luma/index.js';
import { midjourneyProxyDescriptor } from './midjourney-proxy/index.js';
import { minimaxDescriptor } from './minimax/index.js';
import { runwayDescriptor } from './runway/index.js';
import type { ChannelConfig, ProviderDescriptor } from './types.js';

const channel = (options: Record<string, unknown> = {}): ChannelConfig => ({
  name: 'c',
  provider: 'ark',
  baseUrl: 'http://127.0.0.1:1',
  apiKey: 'k',
  headers: {},
  timeoutMs: 1000,
  options,
});

const pollPolicy = async (descriptor: ProviderDescriptor, options?: Record<string, unknown>) =>
  (await createProvider(descriptor)).tasks!.pollPolicy(channel(options));

describe("createProvider: a task part's poll policy from the descriptor's taskPolling", () => {
  it.each([
    [
      'ark: 3 s, ×1.5 to 20 s, an hour, 50 tasks a batch',
      arkDescriptor,
      { firstDelayMs: 3_000, factor: 1.5, maxDelayMs: 20_000, deadlineMs: 3_600_000, maxBatch: 50 },
    ],
    [
      'MJ proxy: 2 s, ×1.5 up to 15 s, 2 h, 50 per batch',
      midjourneyProxyDescriptor,
      { firstDelayMs: 2000, factor: 1.5, maxDelayMs: 15000, deadlineMs: 7_200_000, maxBatch: 50 },
    ],
    [
      'MiniMax: 5 s, ×1.5 up to 30 s, an hour, one task at a time',
      minimaxDescriptor,
      { firstDelayMs: 5_000, factor: 1.5, maxDelayMs: 30_000, deadlineMs: 3_600_000, maxBatch: 1 },
    ],
    [
      'Luma: 3 s, ×1.5 to 20 s, an hour, one at a time',
      lumaDescriptor,
      { firstDelayMs: 3_000, factor: 1.5, maxDelayMs: 20_000, deadlineMs: 3_600_000, maxBatch: 1 },
    ],
    [
      'Runway: 3 s, ×1.5 to 20 s, an hour, one at a time',
      runwayDescriptor,
      { firstDelayMs: 3_000, factor: 1.5, maxDelayMs: 20_000, deadlineMs: 3_600_000, maxBatch: 1 },
    ],
  ])('%s', async (_, descriptor, defaults) => {
    expect(await pollPolicy(descriptor)).toEqual(defaults);
    expect(await pollPolicy(descriptor, { pollIntervalMs: 250, deadlineMs: 60_000 })).toEqual({
      ...defaults,
      firstDelayMs: 250,
      factor: 1,
      maxDelayMs: 250,
      deadlineMs: 60_000,
    });
    expect(await pollPolicy(descriptor, { pollIntervalMs: 0, deadlineMs: '60000' })).toEqual(defaults);
    expect(await pollPolicy(descriptor, { pollIntervalMs: 1.5, deadlineMs: 10 })).toEqual(defaults);
  });

  it('caps an Ark deadline at 48 h (Ark keeps tasks for less than a week)', async () => {
    const hour = 60 * 60_000;
    expect((await pollPolicy(arkDescriptor, { deadlineMs: 48 * hour })).deadlineMs).toBe(48 * hour);
    expect((await pollPolicy(arkDescriptor, { deadlineMs: 49 * hour })).deadlineMs).toBe(hour);
  });

  it("keeps a task part's own pollPolicy, and refuses a task part with neither", async () => {
    const own = { firstDelayMs: 1, factor: 1, maxDelayMs: 1, deadlineMs: 1_000, maxBatch: 1 };
    const tasks = {
      operations: new Set(['video.generate'] as const),
      submit: async () => ({ upstreamId: 'u' }),
      poll: async () => ({ status: 'submitted' as const, vendorStatus: 'queued' }),
    };
    const descriptor: ProviderDescriptor = { name: 'runway', operations: ['video.generate'], factory: () => ({ tasks: { ...tasks, pollPolicy: () => own } }) };
    expect((await createProvider(descriptor)).tasks!.pollPolicy(channel())).toBe(own);
    await expect(createProvider({ ...descriptor, factory: () => ({ tasks }) })).rejects.toThrow(/taskPolling/);
  });
});
