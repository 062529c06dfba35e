import { describe, expect, it } from 'vitest';
import type { ChannelConfig, TaskPollPolicy } from '../types.js';
import { pollPolicyWithOptions } from './task-poll-options.js';

const defaults: TaskPollPolicy = { firstDelayMs: 3_000, factor: 1.5, maxDelayMs: 20_000, deadlineMs: 3_600_000, maxBatch: 1 };
const channel = (options: Record<string, unknown>): ChannelConfig => ({
  name: 'c',
  provider: 'p',
  baseUrl: '',
  apiKey: '',
  headers: {},
  timeoutMs: 1,
  options,
});

describe('pollPolicyWithOptions', () => {
  it('keeps the defaults without options', () => {
    expect(pollPolicyWithOptions({ defaults }, channel({}))).toEqual(defaults);
  });

  it('polls at a fixed interval and moves the deadline when the channel says so', () => {
    expect(pollPolicyWithOptions({ defaults }, channel({ pollIntervalMs: 50, deadlineMs: 5_000 }))).toEqual({
      firstDelayMs: 50,
      maxDelayMs: 50,
      factor: 1,
      deadlineMs: 5_000,
      maxBatch: 1,
    });
  });

  it('ignores values out of range or of the wrong type', () => {
    expect(pollPolicyWithOptions({ defaults }, channel({ pollIntervalMs: 1, deadlineMs: '60000' }))).toEqual(defaults);
    expect(pollPolicyWithOptions({ defaults }, channel({ pollIntervalMs: 2.5, deadlineMs: 1e12 }))).toEqual(defaults);
  });

  it("refuses a deadline beyond the provider's own limit", () => {
    const day = 24 * 60 * 60_000;
    expect(pollPolicyWithOptions({ defaults }, channel({ deadlineMs: 3 * day })).deadlineMs).toBe(3 * day);
    expect(pollPolicyWithOptions({ defaults, maxDeadlineMs: 2 * day }, channel({ deadlineMs: 3 * day })).deadlineMs).toBe(defaults.deadlineMs);
  });
});
