/**
 * GCRA (generic cell rate algorithm) over a sliding minute, with variable cost: the one rate rule
 * both counter stores follow (the Redis scripts repeat this arithmetic in Lua, step for step, so a
 * counter means the same on one process and on many). A counter is a single number, its
 * theoretical arrival time `tat`: each unit pushes it `T = 60000 / limit` ms later, and a hold of
 * `amount` fits while `max(tat, now) + amount·T − now ≤ 60000`. Time replenishes it smoothly, so
 * there is no double burst at a minute boundary as with fixed windows.
 */

export const RATE_WINDOW_MS = 60_000;
/**
 * Float slack when comparing with the window: `tat` is a sum of fractional steps at epoch-ms
 * magnitude, so the 30th of 30 units may land a few ulps past 60000. Far below one millisecond.
 */
export const GCRA_EPSILON_MS = 0.05;

export interface GcraDecision {
  allowed: boolean;
  /** The counter's `tat` after the decision (unchanged when refused). */
  tat: number;
  remaining: number;
  resetAt: number;
  /** When refused: the first moment the hold would fit; absent when it never can (amount above the limit). */
  retryAt?: number;
}

export function emissionInterval(limit: number): number {
  return RATE_WINDOW_MS / limit;
}

/** Tries to take `amount` units from a counter whose state is `tat` (null: never used, or whole). */
export function gcraTake(tat: number | null, limit: number, amount: number, now: number): GcraDecision {
  const interval = emissionInterval(limit);
  const base = Math.max(tat ?? now, now);
  const next = base + amount * interval;
  if (next - now <= RATE_WINDOW_MS + GCRA_EPSILON_MS) {
    return { allowed: true, tat: next, ...gcraStanding(next, limit, now) };
  }
  const standing = gcraStanding(base, limit, now);
  if (amount > limit) return { allowed: false, tat: base, ...standing };
  return { allowed: false, tat: base, ...standing, retryAt: Math.ceil(next - RATE_WINDOW_MS - GCRA_EPSILON_MS) };
}

/** How a counter stands: whole units left now, and when it is fully replenished. */
export function gcraStanding(tat: number | null, limit: number, now: number): { remaining: number; resetAt: number } {
  const interval = emissionInterval(limit);
  const base = Math.max(tat ?? now, now);
  const left = Math.floor((RATE_WINDOW_MS - (base - now) + GCRA_EPSILON_MS) / interval);
  return { remaining: Math.min(limit, Math.max(0, left)), resetAt: Math.ceil(base) };
}

/**
 * Moves a counter by `deltaUnits` (positive: a settle that used more than estimated; negative: it
 * used less, or a release returning the estimate). Never below `now`: time already replenished
 * the counter, and a return cannot make it more than whole.
 */
export function gcraAdjust(tat: number | null, limit: number, deltaUnits: number, now: number): number {
  const base = tat ?? now;
  return Math.max(now, base + deltaUnits * emissionInterval(limit));
}
