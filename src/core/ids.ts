import { drawRandomBytes } from './random-pool.js';

const ALPHABET = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

/** A random identifier of `length` alphanumeric characters (rejection-free, slight bias ok). */
export function randomId(length = 24): string {
  const bytes = drawRandomBytes(length);
  let out = '';
  for (let i = 0; i < length; i++) out += ALPHABET[bytes[i] % ALPHABET.length];
  return out;
}

export function prefixedId(prefix: string, length = 24): string {
  return `${prefix}${randomId(length)}`;
}

/** 19 decimal digits, like the MJ proxy's ids (about 62 random bits). */
export function digitsId(): string {
  const bytes = drawRandomBytes(19);
  let id = String(1 + (bytes[0] % 9));
  for (let i = 1; i < 19; i++) id += String(bytes[i] % 10);
  return id;
}

const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567';

/** 26 lowercase base32 characters (130 random bits), like Replicate's prediction ids. */
export function base32Id(length = 26): string {
  const bytes = drawRandomBytes(length);
  let id = '';
  for (let i = 0; i < length; i++) id += BASE32[bytes[i] & 31];
  return id;
}

export function nowSeconds(): number {
  return Math.floor(Date.now() / 1000);
}
