import { randomBytes } from 'node:crypto';

const ALPHABET = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

/** A random identifier of `length` alphanumeric characters (rejection-free, slight bias ok). */
export function randomId(length = 24): string {
  const bytes = randomBytes(length);
  let out = '';
  for (let i = 0; i < length; i++) out += ALPHABET[bytes[i] % ALPHABET.length];
  return out;
}

export function prefixedId(prefix: string, length = 24): string {
  return `${prefix}${randomId(length)}`;
}

export function nowSeconds(): number {
  return Math.floor(Date.now() / 1000);
}
