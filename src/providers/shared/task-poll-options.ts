/**
 * A task provider's poll policy with the channel options every task provider honours:
 * `pollIntervalMs` polls at that fixed interval instead (tests, or an upstream to be spared),
 * `deadlineMs` replaces the deadline. Values out of range are ignored (the defaults stay).
 */
import type { ChannelConfig, TaskPollPolicy } from '../types.js';

const INTERVAL_RANGE = { min: 10, max: 10 * 60_000 };
const DEADLINE_RANGE = { min: 1_000, max: 7 * 24 * 60 * 60_000 };

export function pollPolicyWithOptions(defaults: TaskPollPolicy, channel: ChannelConfig): TaskPollPolicy {
  const policy = { ...defaults };
  const interval = inRange(channel.options.pollIntervalMs, INTERVAL_RANGE);
  if (interval !== undefined) Object.assign(policy, { firstDelayMs: interval, maxDelayMs: interval, factor: 1 });
  const deadline = inRange(channel.options.deadlineMs, DEADLINE_RANGE);
  if (deadline !== undefined) policy.deadlineMs = deadline;
  return policy;
}

function inRange(value: unknown, range: { min: number; max: number }): number | undefined {
  return typeof value === 'number' && Number.isInteger(value) && value >= range.min && value <= range.max ? value : undefined;
}
