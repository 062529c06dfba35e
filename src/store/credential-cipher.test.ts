import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CredentialCipher, CredentialKeyError, keyIdOf, loadCredentialCipher, loadSecretKey, parseSecretKey } from './credential-cipher.js';

const key = Buffer.alloc(32, 7);
const other = Buffer.alloc(32, 9);

describe('CredentialCipher', () => {
  it('round-trips, and the envelope holds neither the plaintext nor the key', () => {
    const cipher = new CredentialCipher(key);
    const envelope = cipher.encrypt('sk-live-very-secret', 'channel:a');
    expect(envelope).toMatch(/^v1\.[0-9a-f]{16}\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    expect(envelope).not.toContain('sk-live');
    expect(envelope).not.toContain(Buffer.from('sk-live-very-secret').toString('base64url'));
    expect(envelope).not.toContain(key.toString('base64url'));
    expect(cipher.decrypt(envelope, 'channel:a')).toBe('sk-live-very-secret');
  });

  it('uses a fresh nonce each time', () => {
    const cipher = new CredentialCipher(key);
    expect(cipher.encrypt('same', 'x')).not.toBe(cipher.encrypt('same', 'x'));
  });

  it('names the key a ciphertext was sealed under and refuses to open it with another', () => {
    const envelope = new CredentialCipher(key).encrypt('secret', 'channel:a');
    expect(CredentialCipher.keyIdOfEnvelope(envelope)).toBe(keyIdOf(key));
    const wrong = new CredentialCipher(other);
    expect(() => wrong.decrypt(envelope, 'channel:a')).toThrow(CredentialKeyError);
    expect(() => wrong.decrypt(envelope, 'channel:a')).toThrow(
      new RegExp(`encrypted under secret key ${keyIdOf(key)}, but the configured secret key is ${keyIdOf(other)}`),
    );
  });

  it('after a rotation, reads with the previous key and seals with the new one', () => {
    const old = new CredentialCipher(key).encrypt('secret', 'c');
    const rotated = new CredentialCipher(other, [key]);
    expect(rotated.decrypt(old, 'c')).toBe('secret');
    expect(CredentialCipher.keyIdOfEnvelope(rotated.encrypt('secret', 'c'))).toBe(keyIdOf(other));
  });

  it('loadCredentialCipher: the configured key seals, GENGATE_SECRET_KEY_PREVIOUS keys (hex or base64) still open', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'gengate-previous-'));
    try {
      const old = new CredentialCipher(key).encrypt('secret', 'c');
      const cipher = loadCredentialCipher({
        secretKey: other.toString('base64'),
        previousSecretKeys: [Buffer.alloc(32, 5).toString('hex'), key.toString('base64')],
        dataDir,
      });
      expect(cipher.keyId).toBe(keyIdOf(other));
      expect(cipher.decrypt(old, 'c')).toBe('secret');
      expect(() => loadCredentialCipher({ secretKey: other.toString('hex'), previousSecretKeys: ['short'], dataDir })).toThrow(
        /GENGATE_SECRET_KEY_PREVIOUS \(key 1\) must be 32 bytes/,
      );
      const unknown = new CredentialCipher(Buffer.alloc(32, 6)).encrypt('secret', 'c');
      expect(() => cipher.decrypt(unknown, 'c')).toThrow(/previous keys: .*GENGATE_SECRET_KEY_PREVIOUS/);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it("refuses an altered ciphertext, another record's ciphertext and garbage", () => {
    const cipher = new CredentialCipher(key);
    const envelope = cipher.encrypt('secret', 'channel:a');
    const parts = envelope.split('.');
    const data = Buffer.from(parts[4], 'base64url');
    data[0] ^= 1;
    const altered = [...parts.slice(0, 4), data.toString('base64url')].join('.');
    expect(() => cipher.decrypt(altered, 'channel:a')).toThrow(/altered or belongs to another record/);
    expect(() => cipher.decrypt(envelope, 'channel:b')).toThrow(/altered or belongs to another record/);
    expect(() => cipher.decrypt('sk-plaintext', 'channel:a')).toThrow(/not an encrypted envelope/);
    expect(() => cipher.decrypt(`v1.${keyIdOf(key)}.AA.AA.AA`, 'channel:a')).toThrow(/malformed/);
  });

  it('refuses keys that are not 32 bytes', () => {
    expect(() => new CredentialCipher(Buffer.alloc(16))).toThrow(/32 bytes/);
  });
});

describe('secret keys', () => {
  it('reads 32 bytes in hex, base64 or base64url', () => {
    const raw = randomBytes(32);
    expect(parseSecretKey(raw.toString('hex'), 'K')).toEqual(raw);
    expect(parseSecretKey(raw.toString('base64'), 'K')).toEqual(raw);
    expect(parseSecretKey(` ${raw.toString('base64url')}\n`, 'K')).toEqual(raw);
    expect(() => parseSecretKey(randomBytes(16).toString('base64'), 'GENGATE_SECRET_KEY')).toThrow(/GENGATE_SECRET_KEY must be 32 bytes/);
    expect(() => parseSecretKey('correct horse battery staple', 'K')).toThrow(CredentialKeyError);
  });

  it('uses the configured key and then writes no key file', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'gengate-key-'));
    const raw = randomBytes(32);
    expect(loadSecretKey({ secretKey: raw.toString('hex'), dataDir })).toEqual(raw);
    expect(existsSync(join(dataDir, 'secret.key'))).toBe(false);
  });

  it('without one, generates a key into the data folder (mode 0600) once and reads it back after', () => {
    const dataDir = join(mkdtempSync(join(tmpdir(), 'gengate-key-')), 'nested');
    const first = loadSecretKey({ dataDir });
    const path = join(dataDir, 'secret.key');
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(parseSecretKey(readFileSync(path, 'utf8'), path)).toEqual(first);
    expect(loadSecretKey({ dataDir })).toEqual(first);
  });

  it('refuses a damaged key file, naming it', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'gengate-key-'));
    writeFileSync(join(dataDir, 'secret.key'), 'short\n');
    expect(() => loadSecretKey({ dataDir })).toThrow(/secret\.key must be 32 bytes/);
  });
});
