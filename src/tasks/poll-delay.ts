import type { TaskPollPolicy } from '../providers/types.js';

/** The wait before poll number `pollCount + 1`: growing by the policy's factor to its cap, ±20 % jitter so tasks spread out. */
export function pollDelay(policy: TaskPollPolicy, pollCount: number, random: () => number = Math.random): number {
  const grown = policy.firstDelayMs * policy.factor ** Math.min(pollCount, 64);
  const capped = Math.min(policy.maxDelayMs, Math.max(policy.firstDelayMs, grown));
  return Math.round(capped * (0.8 + 0.4 * random()));
}

/** For tasks whose channel is gone from the configuration: polled again now and then until their deadline. */
export const ORPHAN_POLICY: TaskPollPolicy = { firstDelayMs: 30_000, factor: 1, maxDelayMs: 30_000, deadlineMs: 3_600_000, maxBatch: 1 };
