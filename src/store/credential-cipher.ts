/**
 * Encryption of upstream credentials at rest: AES-256-GCM under the gateway's secret key.
 * A ciphertext is an envelope `v1.<keyId>.<iv>.<tag>.<data>` (base64url parts): the key id
 * says which key sealed it, so a wrong key is reported as such and a rotation can keep old
 * keys for reading while new writes use the current one. Additional data binds a ciphertext
 * to its owner (e.g. the channel name), so it cannot be moved to another row.
 */
import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';
import { linkSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { decodeSecretKey, malformedSecretKeyMessage, SECRET_KEY_BYTES } from '../core/secret-key-text.js';

const VERSION = 'v1';
const KEY_BYTES = SECRET_KEY_BYTES;
const IV_BYTES = 12;
const TAG_BYTES = 16;
/** A stored credential larger than this is refused before decoding. */
const MAX_ENVELOPE_CHARS = 1024 * 1024;

export class CredentialKeyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CredentialKeyError';
  }
}

/** A short public name for a key, derived from it one-way. */
export function keyIdOf(key: Buffer): string {
  return createHmac('sha256', key).update('gengate credential key id').digest('hex').slice(0, 16);
}

/** 32 bytes written as 64 hex digits or as base64 (standard or URL-safe). */
export function parseSecretKey(text: string, origin: string): Buffer {
  const key = decodeSecretKey(text);
  if (!key) throw new CredentialKeyError(malformedSecretKeyMessage(origin));
  return key;
}

interface SecretKeySource {
  /** The configured key (`GENGATE_SECRET_KEY`); when absent, the data folder's key file is used. */
  secretKey?: string;
  dataDir: string;
}

interface CipherSource extends SecretKeySource {
  /** Keys in force before a rotation (`GENGATE_SECRET_KEY_PREVIOUS`): they still open, never seal. */
  previousSecretKeys?: readonly string[];
}

/** The cipher of the configured keys: the current one (see `loadSecretKey`) seals, previous ones still open. */
export function loadCredentialCipher(source: CipherSource): CredentialCipher {
  const previous = (source.previousSecretKeys ?? []).map((text, i) => parseSecretKey(text, `GENGATE_SECRET_KEY_PREVIOUS (key ${i + 1})`));
  return new CredentialCipher(loadSecretKey(source), previous);
}

/**
 * The configured key, or the one in `<dataDir>/secret.key`, generated there (mode 0600) the
 * first time. Losing that file makes stored credentials unreadable: back it up with the database.
 */
export function loadSecretKey(source: SecretKeySource): Buffer {
  if (source.secretKey) return parseSecretKey(source.secretKey, 'GENGATE_SECRET_KEY');
  const path = join(source.dataDir, 'secret.key');
  try {
    return parseSecretKey(readFileSync(path, 'utf8'), path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  mkdirSync(source.dataDir, { recursive: true });
  const key = randomBytes(KEY_BYTES);
  // Written whole under a name of its own, then linked into place: `link` fails when the file
  // exists, so of two processes generating at once one wins, and the other never reads a file
  // that is created but not yet written (it reads the winner's key).
  const temp = join(source.dataDir, `.secret.key.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
  writeFileSync(temp, `${key.toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
  try {
    linkSync(temp, path);
    return key;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return parseSecretKey(readFileSync(path, 'utf8'), path);
    throw error;
  } finally {
    rmSync(temp, { force: true });
  }
}

export class CredentialCipher {
  readonly keyId: string;
  private readonly keys = new Map<string, Buffer>();

  /** `current` seals; `previous` keys (after a rotation) still open what they sealed. */
  constructor(
    private readonly current: Buffer,
    previous: readonly Buffer[] = [],
  ) {
    for (const key of [current, ...previous]) {
      if (key.length !== KEY_BYTES) throw new CredentialKeyError(`a credential key must be ${KEY_BYTES} bytes, got ${key.length}`);
      this.keys.set(keyIdOf(key), key);
    }
    this.keyId = keyIdOf(current);
  }

  encrypt(plaintext: string, associatedData: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.current, iv);
    cipher.setAAD(Buffer.from(associatedData, 'utf8'));
    const data = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    const parts = [iv, cipher.getAuthTag(), data].map((part) => part.toString('base64url'));
    return [VERSION, this.keyId, ...parts].join('.');
  }

  /** The key id an envelope names, without decrypting it. */
  static keyIdOfEnvelope(envelope: string): string | undefined {
    const parts = envelope.split('.');
    return parts.length === 5 && parts[0] === VERSION ? parts[1] : undefined;
  }

  /** Throws CredentialKeyError when the envelope is not ours, was sealed under another key, or was altered. */
  decrypt(envelope: string, associatedData: string): string {
    if (envelope.length > MAX_ENVELOPE_CHARS) throw new CredentialKeyError('the stored credential is too large to be one of ours');
    const parts = envelope.split('.');
    if (parts.length !== 5 || parts[0] !== VERSION) throw new CredentialKeyError('the stored credential is not an encrypted envelope this version reads');
    const [, keyId, iv, tag, data] = parts;
    const key = this.keys.get(keyId);
    if (!key) {
      throw new CredentialKeyError(
        `it was encrypted under secret key ${keyId}, but the configured secret key is ${this.keyId}` +
          (this.keys.size > 1 ? ` (previous keys: ${[...this.keys.keys()].filter((id) => id !== this.keyId).join(', ')})` : '') +
          ': set GENGATE_SECRET_KEY (or restore <dataDir>/secret.key) to the key it was stored with, ' +
          'or, after changing the key, put the old one in GENGATE_SECRET_KEY_PREVIOUS and run `gengate secrets rotate`',
      );
    }
    const ivBytes = Buffer.from(iv, 'base64url');
    const tagBytes = Buffer.from(tag, 'base64url');
    if (ivBytes.length !== IV_BYTES || tagBytes.length !== TAG_BYTES) throw new CredentialKeyError('the stored credential is malformed');
    try {
      const decipher = createDecipheriv('aes-256-gcm', key, ivBytes);
      decipher.setAAD(Buffer.from(associatedData, 'utf8'));
      decipher.setAuthTag(tagBytes);
      return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8');
    } catch {
      throw new CredentialKeyError(`it does not authenticate under secret key ${keyId}: it was altered or belongs to another record`);
    }
  }
}
