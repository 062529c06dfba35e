import { describe, expect, it } from 'vitest';
import { formatDate, formatDateTime, formatInt, formatMs, formatNusdAsUsd, formatPrice, formatUsd } from './format.js';

describe('formats', () => {
  it('integers with separators, a dash for nothing', () => {
    expect(formatInt(1234567)).toBe('1,234,567');
    expect(formatInt(null)).toBe('—');
    expect(formatInt(Number.NaN)).toBe('—');
  });

  it('dollars: cents, more digits under a cent', () => {
    expect(formatUsd(0)).toBe('$0.00');
    expect(formatUsd(12.345)).toBe('$12.35');
    expect(formatUsd(0.0042)).toBe('$0.0042');
    expect(formatUsd(0.0000123)).toBe('$0.000012');
    expect(formatUsd(-1.5)).toBe('-$1.50');
    expect(formatUsd(undefined)).toBe('—');
  });

  it('dollars from the integer nUSD of the API', () => {
    expect(formatNusdAsUsd(12_345_000_000)).toBe('$12.35');
    expect(formatNusdAsUsd(4_200_000)).toBe('$0.0042');
    expect(formatNusdAsUsd(0)).toBe('$0.00');
    expect(formatNusdAsUsd(null)).toBe('—');
  });

  it('latency in ms under a second, seconds above', () => {
    expect(formatMs(42.4)).toBe('42 ms');
    expect(formatMs(1500)).toBe('1.50 s');
    expect(formatMs(65_000)).toBe('65.0 s');
    expect(formatMs(null)).toBe('—');
  });

  it('dates in UTC', () => {
    const at = Date.UTC(2025, 0, 2, 3, 4, 5);
    expect(formatDate(at)).toBe('2025-01-02');
    expect(formatDateTime(at)).toBe('2025-01-02 03:04:05 UTC');
    expect(formatDate(null)).toBe('—');
  });

  it('prices of any shape as short text', () => {
    expect(formatPrice({ input: 2.5, output: 10, unit: 'per 1M tokens' })).toBe('input 2.5, output 10, unit per 1M tokens');
    expect(formatPrice(null)).toBe('—');
    expect(formatPrice({ nested: { a: 1 } })).toBe('—');
  });
});
