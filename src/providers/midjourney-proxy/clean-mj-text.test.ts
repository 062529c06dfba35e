import { describe, expect, it } from 'vitest';
import { cleanMjText } from './clean-mj-text.js';

describe('cleanMjText', () => {
  it('removes URLs, collapses whitespace and bounds the length', () => {
    expect(cleanMjText('failed to fetch https://mj.internal.example:8080/mj/x?sig=1  \n try again')).toBe('failed to fetch <url> try again');
    expect(cleanMjText('a'.repeat(900))).toBe(`${'a'.repeat(500)}…`);
    expect(cleanMjText(42)).toBe('');
  });
});
