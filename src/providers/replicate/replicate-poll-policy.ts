/**
 * How Replicate predictions are polled: soon after the submit (image models often finish in
 * seconds), then backing off to every 10 s; one prediction per call (Replicate has no batch
 * read). Channel options: `pollIntervalMs` replaces the first delay (the backoff still grows
 * from it, so a short interval the synchronous provider uses does not hammer the upstream for
 * half an hour), `deadlineMs` the 30 minutes after which an unfinished task is failed. Values out
 * of range are clamped. Not descriptor `taskPolling`: the shared options poll at a fixed interval
 * and ignore values out of range, which would change how existing Replicate channels poll.
 */
import type { ChannelConfig, TaskPollPolicy } from '../types.js';

const DEFAULT_POLICY: TaskPollPolicy = { firstDelayMs: 1_000, factor: 1.6, maxDelayMs: 10_000, deadlineMs: 30 * 60_000, maxBatch: 1 };
const MIN_INTERVAL_MS = 10;
const MAX_INTERVAL_MS = 10 * 60_000;
const MIN_DEADLINE_MS = 1_000;
const MAX_DEADLINE_MS = 24 * 60 * 60_000;

export function replicatePollPolicy(channel: ChannelConfig): TaskPollPolicy {
  const policy = { ...DEFAULT_POLICY };
  const interval = channel.options.pollIntervalMs;
  if (typeof interval === 'number' && Number.isFinite(interval) && interval > 0) {
    policy.firstDelayMs = clamp(interval, MIN_INTERVAL_MS, MAX_INTERVAL_MS);
    policy.maxDelayMs = Math.max(policy.maxDelayMs, policy.firstDelayMs);
  }
  const deadline = channel.options.deadlineMs;
  if (typeof deadline === 'number' && Number.isFinite(deadline) && deadline > 0) policy.deadlineMs = clamp(deadline, MIN_DEADLINE_MS, MAX_DEADLINE_MS);
  return policy;
}

function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, Math.round(value)));
}
