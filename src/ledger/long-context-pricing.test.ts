import { describe, expect, it } from 'vitest';
import { integerPrice } from '../routing/integer-price.js';
import { costOf } from './pricing.js';

// Gemini 2.5 Pro's published rates: ≤200k input tokens $1.25 in / $10 out / $0.125 cache read;
// above 200k, the whole request at $2.50 / $15 / $0.25.
const geminiPro = integerPrice({
  input: 1.25,
  output: 10,
  cacheRead: 0.125,
  above: { threshold: 200_000, input: 2.5, output: 15, cacheRead: 0.25 },
});

describe('the long-context tier', () => {
  it('bills a call at exactly the threshold at the base rates', () => {
    // 200,000 × $1.25 + 1,000 × $10 per million = $0.25 + $0.01 = $0.26.
    expect(costOf(geminiPro, { inputTokens: 200_000, outputTokens: 1_000 })).toBe(260_000_000);
  });

  it('bills the whole call, output and cache reads too, at the tier once input exceeds the threshold', () => {
    // 250,000 input of which 50,000 cache reads: 200,000 × $2.50 + 50,000 × $0.25 + 2,000 × $15 per million
    // = $0.5 + $0.0125 + $0.03 = $0.5425.
    expect(costOf(geminiPro, { inputTokens: 250_000, cacheReadTokens: 50_000, outputTokens: 2_000 })).toBe(542_500_000);
  });

  it('counts cached tokens toward the threshold', () => {
    // 150,000 uncached + 60,000 cache reads = 210,000 > 200,000: tier rates.
    // 150,000 × $2.50 + 60,000 × $0.25 = $0.375 + $0.015 = $0.39.
    expect(costOf(geminiPro, { inputTokens: 210_000, cacheReadTokens: 60_000, outputTokens: 0 })).toBe(390_000_000);
  });

  it('prices cache tokens of the tier at its input rate when it names no cache price', () => {
    const tier = integerPrice({ input: 1, output: 2, cacheRead: 0.1, above: { threshold: 10, input: 4, output: 8 } });
    // 20 input, 10 of them cache reads: (10 × $4 + 10 × $4) per million = $0.00008 = 80,000 nUSD
    // (at the base tier's $0.10 cache read it would be 10 × $4 + 10 × $0.1 = 41,000).
    expect(costOf(tier, { inputTokens: 20, cacheReadTokens: 10, outputTokens: 0 })).toBe(80_000);
  });

  it('bills reasoning tokens once, as the part of output they are', () => {
    // 1,000 output of which 800 reasoning: 1,000 × $10 per million = $0.01, not $0.018.
    expect(costOf(geminiPro, { inputTokens: 0, outputTokens: 1_000, reasoningTokens: 800 })).toBe(10_000_000);
  });
});
