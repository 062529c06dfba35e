import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { apiKeyDigest, generateApiKey, hashApiKey, keyIdOf, sameDigest } from './api-key-format.js';

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

  it('stores the SHA-256 of the key in hex (the published test vector of "abc")', () => {
    expect(hashApiKey('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(apiKeyDigest('abc').toString('hex')).toBe(hashApiKey('abc'));
  });

  it('compares digests exactly', () => {
    expect(sameDigest(apiKeyDigest('x'), apiKeyDigest('x'))).toBe(true);
    expect(sameDigest(apiKeyDigest('x'), apiKeyDigest('y'))).toBe(false);
    expect(sameDigest(apiKeyDigest('x'), Buffer.from('abcd', 'hex'))).toBe(false);
  });
});
