import { describe, expect, it } from 'vitest';
import { createPrng } from '../shared/prng.js';
import { generateFromPatterns } from './generate-from-patterns.js';

const ANY = { min: 0, max: 100 };

describe('generateFromPatterns', () => {
  it('matches one pattern like the single-pattern generator', () => {
    expect(generateFromPatterns(['^[A-Z]{3}$'], createPrng(1), ANY)).toMatch(/^[A-Z]{3}$/);
  });

  it('joins an escaped prefix, infix and suffix, padded to the minimum length', () => {
    const value = generateFromPatterns(['^https:\\/\\/.*', 'example\\.com', '.*\\.json$'], createPrng(2), { min: 40, max: 100 }) as string;
    expect(value.startsWith('https://')).toBe(true);
    expect(value).toContain('example.com');
    expect(value.endsWith('.json')).toBe(true);
    expect(value.length).toBe(40);
  });

  it('gives up (undefined) on patterns it cannot combine or that contradict', () => {
    expect(generateFromPatterns(['^a.*', '^b.*'], createPrng(1), ANY)).toBeUndefined();
    expect(generateFromPatterns(['^[a-z]+$', '^\\d+$'], createPrng(1), ANY)).toBeUndefined();
    expect(generateFromPatterns(['^ab.*', '.*yz$'], createPrng(1), { min: 0, max: 3 })).toBeUndefined();
    expect(generateFromPatterns(['(', 'a'], createPrng(1), ANY)).toBeUndefined();
  });
});
