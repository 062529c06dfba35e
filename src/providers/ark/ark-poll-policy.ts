/**
 * How Ark tasks are polled: first after 3 s, then ×1.5 up to every 20 s, given up 1 h after
 * creation; up to 50 tasks per read of the task list (`filter.task_ids`). Channel options:
 * `pollIntervalMs` polls at that fixed interval instead (tests, or an account to spare),
 * `deadlineMs` replaces the hour. Values out of range are ignored (the defaults stay).
 */
import type { ChannelConfig, TaskPollPolicy } from '../types.js';

export const ARK_POLL_DEFAULTS: TaskPollPolicy = {
  firstDelayMs: 3_000,
  factor: 1.5,
  maxDelayMs: 20_000,
  deadlineMs: 60 * 60 * 1000,
  maxBatch: 50,
};

const INTERVAL_RANGE = { min: 10, max: 10 * 60 * 1000 };
const DEADLINE_RANGE = { min: 1_000, max: 48 * 60 * 60 * 1000 };

export function arkPollPolicy(channel: ChannelConfig): TaskPollPolicy {
  const policy = { ...ARK_POLL_DEFAULTS };
  const interval = inRange(channel.options.pollIntervalMs, INTERVAL_RANGE);
  if (interval !== undefined) Object.assign(policy, { firstDelayMs: interval, maxDelayMs: interval, factor: 1 });
  const deadline = inRange(channel.options.deadlineMs, DEADLINE_RANGE);
  if (deadline !== undefined) policy.deadlineMs = deadline;
  return policy;
}

function inRange(value: unknown, range: { min: number; max: number }): number | undefined {
  return typeof value === 'number' && Number.isInteger(value) && value >= range.min && value <= range.max ? value : undefined;
}
