/**
 * How MiniMax video tasks are polled: first after 5 s, then ×1.5 up to every 30 s (a video takes
 * minutes), given up an hour after creation, one task per query (MiniMax has no batch read).
 * Channel options: `pollIntervalMs` polls at that fixed interval instead (tests, or an account
 * with a tight rate limit), `deadlineMs` replaces the hour. Values out of range are ignored.
 */
import type { ChannelConfig, TaskPollPolicy } from '../types.js';

export const MINIMAX_POLL_DEFAULTS: TaskPollPolicy = {
  firstDelayMs: 5_000,
  factor: 1.5,
  maxDelayMs: 30_000,
  deadlineMs: 60 * 60 * 1000,
  maxBatch: 1,
};

const INTERVAL_RANGE = { min: 10, max: 10 * 60 * 1000 };
const DEADLINE_RANGE = { min: 1_000, max: 7 * 24 * 60 * 60 * 1000 };

export function minimaxPollPolicy(channel: ChannelConfig): TaskPollPolicy {
  const policy = { ...MINIMAX_POLL_DEFAULTS };
  const interval = inRange(channel.options.pollIntervalMs, INTERVAL_RANGE);
  if (interval !== undefined) Object.assign(policy, { firstDelayMs: interval, maxDelayMs: interval, factor: 1 });
  const deadline = inRange(channel.options.deadlineMs, DEADLINE_RANGE);
  if (deadline !== undefined) policy.deadlineMs = deadline;
  return policy;
}

function inRange(value: unknown, range: { min: number; max: number }): number | undefined {
  return typeof value === 'number' && Number.isInteger(value) && value >= range.min && value <= range.max ? value : undefined;
}
