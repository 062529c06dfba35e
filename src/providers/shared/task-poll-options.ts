/**
 * A task provider's poll policy with the channel options every task provider honours:
 * `pollIntervalMs` polls at that fixed interval instead (tests, or an upstream to be spared),
 * `deadlineMs` replaces the deadline. Values out of range are ignored (the defaults stay).
 * A provider whose upstream keeps tasks for less than a week gives a lower `maxDeadlineMs`.
 */
import type { ChannelConfig, TaskPolling, TaskPollPolicy } from '../types.js';

const INTERVAL_RANGE = { min: 10, max: 10 * 60_000 };
const MIN_DEADLINE_MS = 1_000;
const MAX_DEADLINE_MS = 7 * 24 * 60 * 60_000;

export function pollPolicyWithOptions({ defaults, maxDeadlineMs = MAX_DEADLINE_MS }: TaskPolling, channel: ChannelConfig): TaskPollPolicy {
  const policy = { ...defaults };
  const interval = inRange(channel.options.pollIntervalMs, INTERVAL_RANGE);
  if (interval !== undefined) Object.assign(policy, { firstDelayMs: interval, maxDelayMs: interval, factor: 1 });
  const deadline = inRange(channel.options.deadlineMs, { min: MIN_DEADLINE_MS, max: maxDeadlineMs });
  if (deadline !== undefined) policy.deadlineMs = deadline;
  return policy;
}

function inRange(value: unknown, range: { min: number; max: number }): number | undefined {
  return typeof value === 'number' && Number.isInteger(value) && value >= range.min && value <= range.max ? value : undefined;
}
