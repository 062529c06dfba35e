import { describe, expect, it } from 'vitest';
import type { ChannelConfig } from '../types.js';
import { arkPollPolicy } from './ark-poll-policy.js';

const channel = (options: Record<string, unknown>): ChannelConfig => ({
  name: 'ark',
  provider: 'ark',
  baseUrl: 'http://h',
  apiKey: 'k',
  headers: {},
  timeoutMs: 1_000,
  options,
});

describe('arkPollPolicy', () => {
  it('polls after 3 s, backs off ×1.5 to 20 s, gives up after an hour, 50 tasks a batch', () => {
    expect(arkPollPolicy(channel({}))).toEqual({ firstDelayMs: 3_000, factor: 1.5, maxDelayMs: 20_000, deadlineMs: 3_600_000, maxBatch: 50 });
  });

  it('takes a fixed interval and a deadline from the channel options', () => {
    expect(arkPollPolicy(channel({ pollIntervalMs: 20, deadlineMs: 120_000 }))).toMatchObject({
      firstDelayMs: 20,
      maxDelayMs: 20,
      factor: 1,
      deadlineMs: 120_000,
    });
  });

  it('ignores values out of range', () => {
    expect(arkPollPolicy(channel({ pollIntervalMs: 0, deadlineMs: 'soon' }))).toMatchObject({ firstDelayMs: 3_000, deadlineMs: 3_600_000 });
  });
});
