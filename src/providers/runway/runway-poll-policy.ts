/**
 * How Runway tasks are polled: first after 3 s, then ×1.5 up to every 20 s (Runway asks for no
 * more than one read per task every five seconds once under way), failed 1 h after creation; one
 * task per read (Runway has no batch read). Channel options `pollIntervalMs` and `deadlineMs`
 * override that.
 */
import { pollPolicyWithOptions } from '../shared/task-poll-options.js';
import type { ChannelConfig, TaskPollPolicy } from '../types.js';

const RUNWAY_POLL_DEFAULTS: TaskPollPolicy = { firstDelayMs: 3_000, factor: 1.5, maxDelayMs: 20_000, deadlineMs: 60 * 60_000, maxBatch: 1 };

export function runwayPollPolicy(channel: ChannelConfig): TaskPollPolicy {
  return pollPolicyWithOptions(RUNWAY_POLL_DEFAULTS, channel);
}
