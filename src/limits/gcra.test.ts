import { describe, expect, it } from 'vitest';
import { gcraAdjust, gcraStanding, gcraTake } from './gcra.js';

/** Takes `n` single units at `now`, threading the counter through. */
function takeMany(tat: number | null, limit: number, n: number, now: number): { tat: number | null; allowed: number } {
  let allowed = 0;
  let state = tat;
  for (let i = 0; i < n; i++) {
    const decision = gcraTake(state, limit, 1, now);
    if (decision.allowed) allowed++;
    state = decision.tat;
  }
  return { tat: state, allowed };
}

describe('GCRA over a minute', () => {
  it('lets 30/min through at once and the 31st exactly 2 s later', () => {
    const { tat, allowed } = takeMany(null, 30, 30, 0);
    expect(allowed).toBe(30);
    expect(tat).toBe(60_000);
    expect(gcraTake(tat, 30, 1, 0)).toMatchObject({ allowed: false, retryAt: 2_000, remaining: 0, resetAt: 60_000 });
    expect(gcraTake(tat, 30, 1, 1_999).allowed).toBe(false);
    expect(gcraTake(tat, 30, 1, 2_000)).toMatchObject({ allowed: true, tat: 62_000, remaining: 0 });
  });

  it('has no double burst at a minute boundary', () => {
    const first = takeMany(null, 30, 30, 59_999);
    expect(first.allowed).toBe(30);
    // One millisecond into the next minute a fixed window would allow 30 more.
    expect(takeMany(first.tat, 30, 30, 60_000).allowed).toBe(0);
    // A whole minute later the counter is whole again.
    expect(takeMany(first.tat, 30, 31, 119_999).allowed).toBe(30);
  });

  it('admits a limit that does not divide a minute exactly, all of it and no more', () => {
    for (const limit of [7, 13, 997]) {
      const now = 1_764_000_000_123;
      const { tat, allowed } = takeMany(null, limit, limit + 1, now);
      expect(allowed, `limit ${limit}`).toBe(limit);
      expect(gcraStanding(tat, limit, now).remaining).toBe(0);
      expect(gcraStanding(tat, limit, now + 60_000).remaining).toBe(limit);
    }
  });

  it('charges variable cost and says when the shortfall is replenished', () => {
    const first = gcraTake(null, 1_000, 600, 0);
    expect(first).toMatchObject({ allowed: true, tat: 36_000, remaining: 400, resetAt: 36_000 });
    const second = gcraTake(first.tat, 1_000, 500, 0);
    expect(second).toMatchObject({ allowed: false, retryAt: 6_000, remaining: 400 });
    expect(gcraTake(first.tat, 1_000, 500, 6_000)).toMatchObject({ allowed: true, remaining: 0 });
    expect(gcraStanding(first.tat, 1_000, 30_000).remaining).toBe(900);
  });

  it('never admits an amount above the limit, and says no retry can help', () => {
    const decision = gcraTake(null, 1_000, 1_001, 0);
    expect(decision.allowed).toBe(false);
    expect(decision.retryAt).toBeUndefined();
    expect(gcraTake(null, 1_000, 1_000, 0).allowed).toBe(true);
  });

  it('moves the counter by the difference at settle, never below now', () => {
    const taken = gcraTake(null, 1_000, 800, 0).tat; // 48 000
    expect(gcraAdjust(taken, 1_000, 200 - 800, 0)).toBe(12_000);
    expect(gcraAdjust(taken, 1_000, 900 - 800, 0)).toBe(54_000);
    expect(gcraAdjust(taken, 1_000, -800, 10_000)).toBe(10_000);
    expect(gcraStanding(gcraAdjust(taken, 1_000, -800, 10_000), 1_000, 10_000).remaining).toBe(1_000);
  });
});
