/**
 * How the proxy's tasks are polled: first after 2 s, then ×1.5 up to 15 s, given up 2 h after
 * creation, 50 ids per `list-by-condition`. Channel options: `pollIntervalMs` polls at that fixed
 * interval instead (tests, or a proxy that must be spared), `deadlineMs` replaces the 2 h.
 * Values out of range are ignored (the defaults stay).
 */
import { pollPolicyWithOptions } from '../shared/task-poll-options.js';
import type { ChannelConfig, TaskPollPolicy } from '../types.js';

export const MJ_POLL_DEFAULTS: TaskPollPolicy = {
  firstDelayMs: 2_000,
  factor: 1.5,
  maxDelayMs: 15_000,
  deadlineMs: 2 * 60 * 60 * 1000,
  maxBatch: 50,
};

export function mjPollPolicy(channel: ChannelConfig): TaskPollPolicy {
  return pollPolicyWithOptions(MJ_POLL_DEFAULTS, channel);
}
