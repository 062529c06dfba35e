/**
 * How Luma generations are polled: first after 3 s, then ×1.5 up to every 20 s, failed 1 h after
 * creation (Ray generations take a minute or a few); one generation per read (Luma has no batch
 * read by ids). Channel options `pollIntervalMs` and `deadlineMs` override that.
 */
import { pollPolicyWithOptions } from '../shared/task-poll-options.js';
import type { ChannelConfig, TaskPollPolicy } from '../types.js';

const LUMA_POLL_DEFAULTS: TaskPollPolicy = { firstDelayMs: 3_000, factor: 1.5, maxDelayMs: 20_000, deadlineMs: 60 * 60_000, maxBatch: 1 };

export function lumaPollPolicy(channel: ChannelConfig): TaskPollPolicy {
  return pollPolicyWithOptions(LUMA_POLL_DEFAULTS, channel);
}
