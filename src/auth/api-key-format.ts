/**
 * API keys look like `gg-<10-char id><32-char secret>`. The id part locates the stored record
 * without scanning; only a SHA-256 of the whole key is stored, and presented keys are compared
 * against it in constant time. Keys carry ~190 bits of randomness, so a fast hash is enough.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { randomId } from '../core/ids.js';

const PREFIX = 'gg-';
const ID_LENGTH = 10;
const SECRET_LENGTH = 32;

export interface NewApiKey {
  id: string;
  /** The full key: shown once, never stored. */
  key: string;
  hash: string;
  /** Enough of the key to recognise it in listings. */
  hint: string;
}

export function hashApiKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
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

/** Constant-time comparison of two hex digests of equal length. */
export function sameHash(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === right.length && timingSafeEqual(left, right);
}
