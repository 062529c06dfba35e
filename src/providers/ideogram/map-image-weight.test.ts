import { describe, expect, it } from 'vitest';
import { toIdeogramImageWeight } from './map-image-weight.js';

describe('toIdeogramImageWeight', () => {
  it('maps 0–1 linearly onto 1–100, rounding to integers', () => {
    expect(toIdeogramImageWeight(1)).toBe(100);
    expect(toIdeogramImageWeight(0.5)).toBe(50);
    expect(toIdeogramImageWeight(0.35)).toBe(35);
    expect(toIdeogramImageWeight(0.234)).toBe(23);
    expect(toIdeogramImageWeight(0.235)).toBe(24);
  });

  it('clamps to Ideogram’s range: 0 becomes 1, nothing exceeds 100', () => {
    expect(toIdeogramImageWeight(0)).toBe(1);
    expect(toIdeogramImageWeight(0.004)).toBe(1);
    expect(toIdeogramImageWeight(1.2)).toBe(100);
  });
});
