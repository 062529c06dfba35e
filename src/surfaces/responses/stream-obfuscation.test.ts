import { describe, expect, it } from 'vitest';
import { obfuscationPadding } from './stream-obfuscation.js';

describe('obfuscationPadding', () => {
  it('pads a delta to the next multiple of 16 characters, with at least one character', () => {
    expect(obfuscationPadding(5)).toHaveLength(11);
    expect(obfuscationPadding(15)).toHaveLength(1);
    expect(obfuscationPadding(16)).toHaveLength(16);
    expect(obfuscationPadding(0)).toHaveLength(16);
    expect(obfuscationPadding(33)).toHaveLength(15);
  });

  it('uses only characters JSON carries unescaped, and differs from call to call', () => {
    const paddings = Array.from({ length: 300 }, () => obfuscationPadding(0));
    for (const padding of paddings) expect(padding).toMatch(/^[A-Za-z0-9_-]{16}$/);
    expect(new Set(paddings).size).toBe(paddings.length);
  });
});
