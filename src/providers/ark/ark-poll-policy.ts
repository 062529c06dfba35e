/**
 * How Ark tasks are polled: first after 3 s, then ×1.5 up to every 20 s, given up 1 h after
 * creation; up to 50 tasks per read of the task list (`filter.task_ids`). Channel options:
 * `pollIntervalMs` polls at that fixed interval instead (tests, or an account to spare),
 * `deadlineMs` replaces the hour. Values out of range are ignored (the defaults stay).
 */
import { pollPolicyWithOptions } from '../shared/task-poll-options.js';
import type { ChannelConfig, TaskPollPolicy } from '../types.js';

export const ARK_POLL_DEFAULTS: TaskPollPolicy = {
  firstDelayMs: 3_000,
  factor: 1.5,
  maxDelayMs: 20_000,
  deadlineMs: 60 * 60 * 1000,
  maxBatch: 50,
};

export function arkPollPolicy(channel: ChannelConfig): TaskPollPolicy {
  return pollPolicyWithOptions(ARK_POLL_DEFAULTS, channel, { maxDeadlineMs: 48 * 60 * 60 * 1000 });
}
