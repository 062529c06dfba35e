import { describe, expect, it } from 'vitest';
import { buildQuery, dayRange, expiryFromDateInput, formatDateInput, lastDays, parseDateInput, parseNameList } from './query.js';

const DAY = 86_400_000;

describe('buildQuery', () => {
  it('keeps set values, encodes them, leaves the rest out', () => {
    expect(buildQuery({ from: 1, groupBy: 'day', key: '', model: null, channel: undefined, q: 'a b&c' })).toBe('?from=1&groupBy=day&q=a+b%26c');
    expect(buildQuery({ a: '' })).toBe('');
  });
});

describe('date ranges', () => {
  it('the last n days start at midnight UTC of the first, end now', () => {
    const now = Date.UTC(2025, 5, 10, 15, 30);
    expect(lastDays(7, now)).toEqual({ from: Date.UTC(2025, 5, 4), to: now });
  });

  it('a custom range covers both days whole; backwards or invalid is null', () => {
    expect(dayRange('2025-01-01', '2025-01-31')).toEqual({ from: Date.UTC(2025, 0, 1), to: Date.UTC(2025, 1, 1) - 1 });
    expect(dayRange('2025-02-01', '2025-01-31')).toBeNull();
    expect(dayRange('', '2025-01-31')).toBeNull();
  });

  it('date inputs parse strictly', () => {
    expect(parseDateInput('2024-02-29')).toBe(Date.UTC(2024, 1, 29));
    expect(parseDateInput('2025-02-30')).toBeNull();
    expect(parseDateInput('2025-2-3')).toBeNull();
    expect(formatDateInput(Date.UTC(2025, 11, 31, 23, 59))).toBe('2025-12-31');
  });

  it('a key expiring on a date works through that day', () => {
    expect(expiryFromDateInput('2025-03-01')).toBe(Date.UTC(2025, 2, 1) + DAY - 1);
    expect(expiryFromDateInput('soon')).toBeNull();
  });
});

describe('parseNameList', () => {
  it('splits on commas and lines, trims, drops empties and repeats; nothing is null', () => {
    expect(parseNameList(' gpt-4o, claude-sonnet ,,\ngpt-4o ')).toEqual(['gpt-4o', 'claude-sonnet']);
    expect(parseNameList(' , ')).toBeNull();
  });

  it('is bounded', () => {
    expect(parseNameList(Array.from({ length: 500 }, (_, i) => `m${i}`).join(','))).toHaveLength(200);
  });
});
