/**
 * How the proxy's tasks are polled: first after 2 s, then ×1.5 up to 15 s, given up 2 h after
 * creation, 50 ids per `list-by-condition`. Channel options: `pollIntervalMs` polls at that fixed
 * interval instead (tests, or a proxy that must be spared), `deadlineMs` replaces the 2 h.
 * Values out of range are ignored (the defaults stay).
 */
import type { ChannelConfig, TaskPollPolicy } from '../types.js';

export const MJ_POLL_DEFAULTS: TaskPollPolicy = {
  firstDelayMs: 2_000,
  factor: 1.5,
  maxDelayMs: 15_000,
  deadlineMs: 2 * 60 * 60 * 1000,
  maxBatch: 50,
};

const INTERVAL_RANGE = { min: 10, max: 10 * 60 * 1000 };
const DEADLINE_RANGE = { min: 1_000, max: 7 * 24 * 60 * 60 * 1000 };

export function mjPollPolicy(channel: ChannelConfig): TaskPollPolicy {
  const policy = { ...MJ_POLL_DEFAULTS };
  const interval = inRange(channel.options.pollIntervalMs, INTERVAL_RANGE);
  if (interval !== undefined) Object.assign(policy, { firstDelayMs: interval, maxDelayMs: interval, factor: 1 });
  const deadline = inRange(channel.options.deadlineMs, DEADLINE_RANGE);
  if (deadline !== undefined) policy.deadlineMs = deadline;
  return policy;
}

function inRange(value: unknown, range: { min: number; max: number }): number | undefined {
  return typeof value === 'number' && Number.isInteger(value) && value >= range.min && value <= range.max ? value : undefined;
}
