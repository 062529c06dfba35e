import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { generateApiKey, hashApiKey, keyIdOf, sameHash } from './api-key-format.js';

describe('API key format', () => {
  it('generates distinct keys whose id is recoverable and whose hash is SHA-256 of the key', () => {
    const a = generateApiKey();
    const b = generateApiKey();
    expect(a.key).not.toBe(b.key);
    expect(a.key).toMatch(/^gg-[A-Za-z0-9]{42}$/);
    expect(keyIdOf(a.key)).toBe(a.id);
    expect(a.hash).toBe(createHash('sha256').update(a.key).digest('hex'));
    expect(a.hint.startsWith(`gg-${a.id}`)).toBe(true);
    expect(a.hint).not.toContain(a.key.slice(13));
  });

  it('rejects strings that are not shaped like a key', () => {
    expect(keyIdOf('sk-whatever')).toBeUndefined();
    expect(keyIdOf('gg-short')).toBeUndefined();
  });

  it('compares hashes exactly', () => {
    expect(sameHash(hashApiKey('x'), hashApiKey('x'))).toBe(true);
    expect(sameHash(hashApiKey('x'), hashApiKey('y'))).toBe(false);
    expect(sameHash(hashApiKey('x'), 'abcd')).toBe(false);
  });
});
