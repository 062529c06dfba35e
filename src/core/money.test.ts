import { describe, expect, it } from 'vitest';
import { formatNusd, pricePerMillionToMicros, usdToNusd } from './money.js';

describe('money', () => {
  it('reads decimal USD exactly, from numbers and strings', () => {
    expect(usdToNusd('12.50')).toBe(12_500_000_000);
    expect(usdToNusd(0.1)).toBe(100_000_000);
    expect(usdToNusd(1e-7)).toBe(100);
    expect(usdToNusd('0.000000001')).toBe(1);
    expect(pricePerMillionToMicros(0.0375)).toBe(37_500);
  });

  it('refuses what is not a non-negative amount of whole units', () => {
    expect(() => usdToNusd('0.0000000001')).toThrow(/more than 9 decimal places/);
    expect(() => usdToNusd(-1)).toThrow(RangeError);
    expect(() => usdToNusd('1e3')).toThrow(RangeError);
    expect(() => usdToNusd(Number.NaN)).toThrow(RangeError);
    expect(() => pricePerMillionToMicros(0.0000001)).toThrow(/more than 6 decimal places/);
  });

  it('formats nUSD as an exact decimal', () => {
    expect(formatNusd(12_500)).toBe('0.000012500');
    expect(formatNusd(3_000_000_001)).toBe('3.000000001');
    expect(formatNusd(0)).toBe('0.000000000');
  });
});
