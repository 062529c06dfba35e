import { describe, expect, it } from 'vitest';
import { nextQuickDeaths, restartDelayMs } from './restart-backoff.js';

describe('worker restart backoff', () => {
  it('restarts at once after a long run, then doubles up to 10 s while replacements die young', () => {
    expect(restartDelayMs(0)).toBe(0);
    expect([1, 2, 3, 4, 5, 6, 7, 8, 20].map(restartDelayMs)).toEqual([250, 500, 1000, 2000, 4000, 8000, 10_000, 10_000, 10_000]);
  });

  it('counts deaths within 10 s of start and forgets them after a healthy run', () => {
    expect(nextQuickDeaths(0, 30_000)).toBe(0);
    expect(nextQuickDeaths(0, 2_000)).toBe(1);
    expect(nextQuickDeaths(3, 9_999)).toBe(4);
    expect(nextQuickDeaths(5, 10_000)).toBe(0);
  });
});
