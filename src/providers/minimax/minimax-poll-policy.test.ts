import { describe, expect, it } from 'vitest';
import type { ChannelConfig } from '../types.js';
import { minimaxPollPolicy } from './minimax-poll-policy.js';

const channel = (options: Record<string, unknown> = {}): ChannelConfig => ({
  name: 'mm',
  provider: 'minimax',
  baseUrl: 'https://api.minimax.io',
  apiKey: 'k',
  headers: {},
  timeoutMs: 1000,
  options,
});

describe('minimaxPollPolicy', () => {
  it('polls after 5 s, ×1.5 up to 30 s, one task at a time, for an hour', () => {
    expect(minimaxPollPolicy(channel())).toEqual({ firstDelayMs: 5_000, factor: 1.5, maxDelayMs: 30_000, deadlineMs: 3_600_000, maxBatch: 1 });
  });

  it('takes a fixed interval and a deadline from the channel options, ignoring values out of range', () => {
    expect(minimaxPollPolicy(channel({ pollIntervalMs: 50, deadlineMs: 5_000 }))).toMatchObject({
      firstDelayMs: 50,
      maxDelayMs: 50,
      factor: 1,
      deadlineMs: 5_000,
    });
    expect(minimaxPollPolicy(channel({ pollIntervalMs: 1, deadlineMs: 'soon' }))).toMatchObject({ firstDelayMs: 5_000, deadlineMs: 3_600_000 });
  });
});
