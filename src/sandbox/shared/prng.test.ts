import { describe, expect, it } from 'vitest';
import { createPrng } from './prng.js';

describe('createPrng', () => {
  it('repeats its sequence for a seed and differs across seeds', () => {
    const a = createPrng(42);
    const b = createPrng(42);
    const c = createPrng(43);
    const first = [a.next(), a.next(), a.next()];
    expect([b.next(), b.next(), b.next()]).toEqual(first);
    expect([c.next(), c.next(), c.next()]).not.toEqual(first);
  });

  it('keeps draws within their ranges', () => {
    const rng = createPrng(1);
    for (let i = 0; i < 1000; i++) {
      const f = rng.next();
      expect(f >= 0 && f < 1).toBe(true);
      const n = rng.int(-2, 3);
      expect(Number.isInteger(n) && n >= -2 && n <= 3).toBe(true);
    }
    expect(rng.int(5, 5)).toBe(5);
    expect(rng.int(5, 4)).toBe(5);
    expect(rng.hex(30)).toMatch(/^[0-9a-f]{30}$/);
    expect(['x', 'y']).toContain(rng.pick(['x', 'y']));
  });
});
