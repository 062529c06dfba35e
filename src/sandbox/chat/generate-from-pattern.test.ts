import { describe, expect, it } from 'vitest';
import { createPrng } from '../shared/prng.js';
import { generateFromPattern } from './generate-from-pattern.js';
import { GenerationLimitError, MAX_STRING_LENGTH } from './generation-limits.js';

const ANY_LENGTH = { min: 0, max: Infinity };

describe('generateFromPattern', () => {
  const patterns = [
    '^[a-z]+$',
    '^\\d{3}-\\d{2}-\\d{4}$',
    '^[A-Z][a-z]{2,5}$',
    '^(red|green|blue)$',
    '^[a-z]{2}_[A-Z]{2}$',
    '^\\w+@\\w+\\.com$',
    '^[^a-z]{3}$',
    '^\\S+\\s\\S+$',
    'id-\\d+',
    '^a.c$',
    '^x?y*z+$',
    '^[-+]?\\d+(\\.\\d+)?$',
  ];
  for (const pattern of patterns) {
    it(`matches ${pattern}`, () => {
      const regex = new RegExp(pattern, 'u');
      for (let seed = 1; seed <= 20; seed++) {
        const value = generateFromPattern(pattern, createPrng(seed), ANY_LENGTH);
        expect(value, `seed ${seed}`).toBeDefined();
        expect(regex.test(value as string), `seed ${seed}: ${value}`).toBe(true);
      }
    });
  }

  it('keeps within length bounds', () => {
    for (let seed = 1; seed <= 20; seed++) {
      const value = generateFromPattern('^[a-z]+$', createPrng(seed), { min: 2, max: 3 }) as string;
      expect(value).toMatch(/^[a-z]{2,3}$/);
    }
  });

  it('falls back to a common string for patterns it cannot parse', () => {
    // A lookahead is beyond the parser, but some of the common fallbacks satisfy it.
    const value = generateFromPattern('^(?=.*\\d)[a-z0-9]+$', createPrng(1), ANY_LENGTH);
    expect(value).toMatch(/^(?=.*\d)[a-z0-9]+$/);
  });

  it('gives up on impossible or invalid patterns', () => {
    expect(generateFromPattern('^(?=x)y$', createPrng(1), ANY_LENGTH)).toBeUndefined();
    expect(generateFromPattern('([a-z', createPrng(1), ANY_LENGTH)).toBeUndefined();
  });
});

describe('generateFromPattern bounds', () => {
  it('finding 1: refuses a quantifier whose minimum is over the string bound', () => {
    expect(() => generateFromPattern('^x{1000000}$', createPrng(1), ANY_LENGTH)).toThrow(GenerationLimitError);
    expect(() => generateFromPattern('^(ab{100}){200}$', createPrng(1), ANY_LENGTH)).toThrow(/at least 20200 characters/);
  });

  it('finding 1: matches a large but allowed quantifier, and keeps open repeats within the bound', () => {
    const value = generateFromPattern('^z{5000}$', createPrng(1), ANY_LENGTH) as string;
    expect(value).toBe('z'.repeat(5_000));
    for (const pattern of ['^(((((((((((x*)*)*)*)*)*)*)*)*)*)*)$', '^((a{0,1000}){0,1000}){0,1000}$', '^(){1000000000}y$']) {
      const out = generateFromPattern(pattern, createPrng(2), ANY_LENGTH);
      if (out !== undefined) {
        expect(out.length).toBeLessThanOrEqual(MAX_STRING_LENGTH);
        expect(new RegExp(pattern, 'u').test(out)).toBe(true);
      }
    }
  });
});
