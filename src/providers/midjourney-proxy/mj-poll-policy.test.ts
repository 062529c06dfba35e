import { describe, expect, it } from 'vitest';
import type { ChannelConfig } from '../types.js';
import { mjPollPolicy } from './mj-poll-policy.js';

const channel = (options: Record<string, unknown> = {}): ChannelConfig => ({
  name: 'mj',
  provider: 'midjourney-proxy',
  baseUrl: 'http://127.0.0.1:1',
  apiKey: 'k',
  headers: {},
  timeoutMs: 1000,
  options,
});

describe('mjPollPolicy', () => {
  it('defaults: 2 s, ×1.5 up to 15 s, 2 h deadline, 50 per batch', () => {
    expect(mjPollPolicy(channel())).toEqual({ firstDelayMs: 2000, factor: 1.5, maxDelayMs: 15000, deadlineMs: 7_200_000, maxBatch: 50 });
  });

  it('pollIntervalMs polls at a fixed interval; deadlineMs replaces the deadline', () => {
    expect(mjPollPolicy(channel({ pollIntervalMs: 250, deadlineMs: 60_000 }))).toEqual({
      firstDelayMs: 250,
      factor: 1,
      maxDelayMs: 250,
      deadlineMs: 60_000,
      maxBatch: 50,
    });
  });

  it('ignores values out of range or of the wrong type', () => {
    expect(mjPollPolicy(channel({ pollIntervalMs: 0, deadlineMs: '60000' }))).toEqual(mjPollPolicy(channel()));
    expect(mjPollPolicy(channel({ pollIntervalMs: 1.5, deadlineMs: 10 }))).toEqual(mjPollPolicy(channel()));
  });
});
