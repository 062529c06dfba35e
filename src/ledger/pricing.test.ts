import { describe, expect, it } from 'vitest';
import { costOf, costOfCall } from './pricing.js';

describe('costOf (nUSD)', () => {
  const price = { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 };

  it('prices uncached input, cache reads, cache writes and output each at their own rate', () => {
    // 10,000 input of which 6,000 read from cache and 1,000 written: 3,000 uncached.
    // 3,000 × $3 + 6,000 × $0.30 + 1,000 × $3.75 + 2,000 × $15 per million = $0.04455.
    expect(costOf(price, { inputTokens: 10_000, cacheReadTokens: 6_000, cacheWriteTokens: 1_000, outputTokens: 2_000 })).toBe(44_550_000);
  });

  it('charges cached tokens at the input price when no cache price is known', () => {
    // (100 × $2 + 10 × $4) / 1e6 = $0.00024.
    expect(costOf({ input: 2, output: 4 }, { inputTokens: 100, cacheReadTokens: 50, outputTokens: 10 })).toBe(240_000);
  });

  it('is exact where floating point is not, and rounds a fraction of a nano-dollar half up once', () => {
    // 1 token at $0.0375 per million is 37.5 nUSD, rounded half up to 38; 2 tokens are exactly 75.
    expect(costOf({ input: 0.0375, output: 0 }, { inputTokens: 1, outputTokens: 0 })).toBe(38);
    expect(costOf({ input: 0.0375, output: 0 }, { inputTokens: 2, outputTokens: 0 })).toBe(75);
    // 0.1 + 0.2 in floats is 0.30000000000000004; here 1M tokens at $0.1 plus 1M at $0.2 are exactly $0.3.
    expect(costOf({ input: 0.1, output: 0.2 }, { inputTokens: 1_000_000, outputTokens: 1_000_000 })).toBe(300_000_000);
  });

  it('adds units at the per-unit price', () => {
    expect(costOfCall({ input: 0, output: 0, perUnit: 0.04 }, undefined, 3)).toBe(120_000_000);
  });

  it('is zero for unpriced models', () => {
    expect(costOf(undefined, { inputTokens: 100, outputTokens: 10 })).toBe(0);
  });
});
