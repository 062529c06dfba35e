import { describe, expect, it } from 'vitest';
import type { ChannelConfig } from '../types.js';
import { replicatePollPolicy } from './replicate-poll-policy.js';

const channel = (options: Record<string, unknown> = {}): ChannelConfig => ({
  name: 'replicate',
  provider: 'replicate',
  baseUrl: 'https://api.replicate.com',
  apiKey: 'r8_token',
  headers: {},
  timeoutMs: 30_000,
  options,
});

describe('replicatePollPolicy', () => {
  it('polls after 1 s, backing off by 1.6 to 10 s, one prediction per call, for 30 minutes', () => {
    expect(replicatePollPolicy(channel())).toEqual({ firstDelayMs: 1_000, factor: 1.6, maxDelayMs: 10_000, deadlineMs: 1_800_000, maxBatch: 1 });
  });

  it('takes the first delay and the deadline from the channel options, within bounds, still backing off', () => {
    expect(replicatePollPolicy(channel({ pollIntervalMs: 250, deadlineMs: 60_000 }))).toEqual({
      firstDelayMs: 250,
      factor: 1.6,
      maxDelayMs: 10_000,
      deadlineMs: 60_000,
      maxBatch: 1,
    });
    expect(replicatePollPolicy(channel({ pollIntervalMs: 30_000 }))).toMatchObject({ firstDelayMs: 30_000, maxDelayMs: 30_000 });
    expect(replicatePollPolicy(channel({ pollIntervalMs: 1, deadlineMs: 1e12 }))).toMatchObject({ firstDelayMs: 10, deadlineMs: 86_400_000 });
    expect(replicatePollPolicy(channel({ pollIntervalMs: 'fast', deadlineMs: -5 }))).toMatchObject({ firstDelayMs: 1_000, deadlineMs: 1_800_000 });
  });
});
