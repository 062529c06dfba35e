import { describe, expect, it } from 'vitest';
import { parseAccountEmail, parseExpiry, parseKeyName, parseModelPatterns } from './key-options.js';
import { UsageError } from './usage.js';

const NOW = Date.parse('2026-06-15T10:00:00Z');

describe('keys create values', () => {
  it('finding 14: --models "" (or only commas and spaces) is refused, not taken for "any model"', () => {
    for (const value of ['', ',', ' , ,', '   ']) expect(() => parseModelPatterns(value)).toThrow(UsageError);
    expect(() => parseModelPatterns('')).toThrow(/leave --models out for a key that may use any model/);
    expect(parseModelPatterns(undefined)).toBeNull();
    expect(parseModelPatterns(' textmodel-b-*, textmodel-a-*,textmodel-b-* ')).toEqual(['textmodel-b-*', 'textmodel-a-*']);
    expect(() => parseModelPatterns('textmodel b')).toThrow(/spaces or control characters/);
    expect(() => parseModelPatterns('a'.repeat(201))).toThrow(/longer than 200/);
  });

  it('finding 14: --expires in the past or now is refused, a future date is midnight UTC', () => {
    expect(() => parseExpiry('2020-01-01', NOW)).toThrow(/is not in the future/);
    expect(() => parseExpiry('2026-06-15T10:00Z', NOW)).toThrow(/is not in the future/);
    expect(parseExpiry('2027-01-01', NOW)).toBe(Date.UTC(2027, 0, 1));
    expect(parseExpiry('2026-06-15T11:30', NOW)).toBe(Date.UTC(2026, 5, 15, 11, 30));
    expect(parseExpiry('2026-06-16T00:00+02:00', NOW)).toBe(Date.UTC(2026, 5, 15, 22, 0));
    expect(parseExpiry(undefined, NOW)).toBeNull();
  });

  it('finding 14: --expires that is not a real date is refused', () => {
    for (const value of ['tomorrow', '1', '2027-02-30', '2027-13-01', '01/02/2027', '']) {
      expect(() => parseExpiry(value, NOW), value).toThrow(/is not a date/);
    }
  });

  it('finding 14: key names are one trimmed line of bounded length, without control characters', () => {
    expect(parseKeyName('  my app  ')).toBe('my app');
    expect(parseKeyName(undefined)).toBe('unnamed');
    for (const bad of ['a\tb', 'a\nb', 'a\rb', 'x\u001b[31m', 'evil\u202Etxt.exe'])
      expect(() => parseKeyName(bad), JSON.stringify(bad)).toThrow(/one line of printable text/);
    expect(() => parseKeyName('   ')).toThrow(/empty/);
    expect(parseKeyName('é'.repeat(100))).toHaveLength(100);
    expect(() => parseKeyName('a'.repeat(101))).toThrow(/longer than 100/);
  });

  it('--account is an email, lower-cased; without it the key is an operator key', () => {
    expect(parseAccountEmail(' Ops@Example.com ')).toBe('ops@example.com');
    expect(parseAccountEmail(undefined)).toBeUndefined();
    for (const bad of ['', 'ops', 'a b@example.com', `${'a'.repeat(250)}@example.com`])
      expect(() => parseAccountEmail(bad), bad).toThrow(/is not an email address/);
  });
});
