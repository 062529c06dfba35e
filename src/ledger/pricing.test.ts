import { describe, expect, it } from 'vitest';
import { costOf } from './pricing.js';

describe('costOf', () => {
  const price = { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 };

  it('prices uncached input, cache reads, cache writes and output each at their own rate', () => {
    // 10,000 input of which 6,000 read from cache and 1,000 written: 3,000 uncached.
    const cost = costOf(price, { inputTokens: 10_000, cacheReadTokens: 6_000, cacheWriteTokens: 1_000, outputTokens: 2_000 });
    expect(cost).toBeCloseTo((3_000 * 3 + 6_000 * 0.3 + 1_000 * 3.75 + 2_000 * 15) / 1e6, 12);
  });

  it('charges cached tokens at the input price when no cache price is known', () => {
    expect(costOf({ input: 2, output: 4 }, { inputTokens: 100, cacheReadTokens: 50, outputTokens: 10 })).toBeCloseTo((100 * 2 + 10 * 4) / 1e6, 12);
  });

  it('is zero for unpriced models', () => {
    expect(costOf(undefined, { inputTokens: 100, outputTokens: 10 })).toBe(0);
  });
});
