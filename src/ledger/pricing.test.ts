import { describe, expect, it } from 'vitest';
import type { ModelPrice } from '../config/types.js';
import { integerPrice } from '../routing/integer-price.js';
import { costOf as costOfInteger, costOfCall as costOfCallInteger, unitsCost } from './pricing.js';

// The catalog converts its USD prices once (`integerPrice`); these helpers do the same for each case.
const costOf = (price: ModelPrice | undefined, usage: Parameters<typeof costOfInteger>[1]) => costOfInteger(price && integerPrice(price), usage);
const costOfCall = (price: ModelPrice, usage: Parameters<typeof costOfCallInteger>[1], units: number) => costOfCallInteger(integerPrice(price), usage, units);

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

  it('charges whole units exactly and a fraction of a unit (seconds) rounded half up once', () => {
    // $0.1 a second: 0.1 + 0.1 + 0.1 in floats is 0.30000000000000004; 3 seconds here are exactly 300,000,000 nUSD.
    const perSecond = integerPrice({ input: 0, output: 0, perUnit: 0.1 });
    expect(unitsCost(perSecond, 3)).toBe(300_000_000);
    // 2.5 seconds at 0.000000003 USD (3 nUSD) a second: 7.5 → 8.
    expect(unitsCost(integerPrice({ input: 0, output: 0, perUnit: 0.000000003 }), 2.5)).toBe(8);
    expect(unitsCost(perSecond, 0)).toBe(0);
  });

  it('converts USD prices to integers exactly and refuses one finer than its unit', () => {
    expect(integerPrice({ input: 0.000001, output: 1234.5, cacheRead: 0.1, perUnit: 0.000000001 })).toEqual({
      inputMicros: 1,
      outputMicros: 1_234_500_000,
      cacheReadMicros: 100_000,
      cacheWriteMicros: 1,
      perUnitNusd: 1,
    });
    expect(() => integerPrice({ input: 0.0000001, output: 0 })).toThrow(/price.input has more than 6 decimal places/);
    expect(() => integerPrice({ input: 0, output: 0, perUnit: 0.0000000001 })).toThrow(/price.perUnit has more than 9 decimal places/);
  });

  it('is zero for unpriced models', () => {
    expect(costOf(undefined, { inputTokens: 100, outputTokens: 10 })).toBe(0);
  });
});
