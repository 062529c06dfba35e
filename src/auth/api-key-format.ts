/**
 * API keys look like `gg-<10-char id><32-char secret>`. The id part locates the stored record
 * without scanning; only a SHA-256 of the whole key is stored, and presented keys are compared
 * against it in constant time. Keys carry ~190 bits of randomness, so a fast hash is enough.
 */
import * as crypto from 'node:crypto';
import { randomId } from '../core/ids.js';

const PREFIX = 'gg-';
const ID_LENGTH = 10;
const SECRET_LENGTH = 32;

interface NewApiKey {
  id: string;
  /** The full key: shown once, never stored. */
  key: string;
  hash: string;
  /** Enough of the key to recognise it in listings. */
  hint: string;
}

/** Node's one-shot hash (20.12 and later): no Hash object per call. */
const oneShotHash = (crypto as { hash?: (algorithm: string, data: string) => string }).hash;

/**
 * The SHA-256 of a key, as bytes (what presented keys are compared by). Node 20's one-shot hash
 * gives hex at less than half the cost of its 'buffer' output; decoding the hex is cheaper still.
 */
export function apiKeyDigest(key: string): Buffer {
  return oneShotHash ? Buffer.from(oneShotHash('sha256', key), 'hex') : crypto.createHash('sha256').update(key).digest();
}

/** The SHA-256 of a key in hex, as stored. */
export function hashApiKey(key: string): string {
  return oneShotHash ? oneShotHash('sha256', key) : crypto.createHash('sha256').update(key).digest('hex');
}

export function generateApiKey(): NewApiKey {
  const id = randomId(ID_LENGTH);
  const key = `${PREFIX}${id}${randomId(SECRET_LENGTH)}`;
  return { id, key, hash: hashApiKey(key), hint: `${key.slice(0, PREFIX.length + ID_LENGTH)}…` };
}

/** The id inside a presented key, or undefined when it is not shaped like one of ours. */
export function keyIdOf(presented: string): string | undefined {
  if (!presented.startsWith(PREFIX) || presented.length !== PREFIX.length + ID_LENGTH + SECRET_LENGTH) return undefined;
  return presented.slice(PREFIX.length, PREFIX.length + ID_LENGTH);
}

/** Constant-time comparison of two digests. */
export function sameDigest(a: Buffer, b: Buffer): boolean {
  return a.length === b.length && crypto.timingSafeEqual(a, b);
}
