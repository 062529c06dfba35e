import { describe, expect, it } from 'vitest';
import { cleanVendorText } from './clean-vendor-text.js';

describe('cleanVendorText', () => {
  it('masks URLs and secrets, collapses whitespace and control characters', () => {
    expect(cleanVendorText('bad\u0000 key  sk-12345678\n at https://h.example/p?q=1 ok', ['sk-12345678'])).toBe('bad key [redacted] at [url] ok');
  });

  it('is empty for what is not a string, and bounded', () => {
    expect(cleanVendorText(42)).toBe('');
    expect(cleanVendorText('a'.repeat(10_000), [], 20)).toBe(`${'a'.repeat(20)}…`);
  });

  it('does not mask secrets too short to be credentials', () => {
    expect(cleanVendorText('the key', ['key'])).toBe('the key');
  });
});
