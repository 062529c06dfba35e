/**
 * How MiniMax video tasks are polled: first after 5 s, then ×1.5 up to every 30 s (a video takes
 * minutes), given up an hour after creation, one task per query (MiniMax has no batch read).
 * Channel options: `pollIntervalMs` polls at that fixed interval instead (tests, or an account
 * with a tight rate limit), `deadlineMs` replaces the hour. Values out of range are ignored.
 */
import { pollPolicyWithOptions } from '../shared/task-poll-options.js';
import type { ChannelConfig, TaskPollPolicy } from '../types.js';

const MINIMAX_POLL_DEFAULTS: TaskPollPolicy = {
  firstDelayMs: 5_000,
  factor: 1.5,
  maxDelayMs: 30_000,
  deadlineMs: 60 * 60 * 1000,
  maxBatch: 1,
};

export function minimaxPollPolicy(channel: ChannelConfig): TaskPollPolicy {
  return pollPolicyWithOptions(MINIMAX_POLL_DEFAULTS, channel);
}
