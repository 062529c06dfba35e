import { describe, expect, it } from 'vitest';
import { milliseconds } from './timing-headers.js';

describe('milliseconds in a timing header', () => {
  it('has two decimals, rounded', () => {
    expect([0, 0.004, 0.005, 0.42, 1, 12.345, 812.3, 100_000.999].map(milliseconds)).toEqual([
      '0.00',
      '0.00',
      '0.01',
      '0.42',
      '1.00',
      '12.35',
      '812.30',
      '100001.00',
    ]);
  });
});
