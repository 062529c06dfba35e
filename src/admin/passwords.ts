/**
 * Account passwords, hashed with scrypt (in libuv's thread pool, off the event loop):
 * `scrypt$<N>$<r>$<p>$<salt>$<hash>` (base64url). Length is checked before any hashing.
 */
import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import { GatewayError } from '../core/errors.js';

const N = 2 ** 15;
const R = 8;
const P = 1;
const KEY_BYTES = 32;
/** 128·N·r bytes are needed; Node's default ceiling is exactly that, so leave room. */
const MAX_MEMORY = 64 * 1024 * 1024;
const MIN_PASSWORD_CHARS = 10;
const MAX_PASSWORD_CHARS = 256;

function derive(password: string, salt: Buffer, n: number, r: number, p: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFC'), salt, KEY_BYTES, { N: n, r, p, maxmem: MAX_MEMORY }, (error, key) => (error ? reject(error) : resolve(key)));
  });
}

/** A new password must be 10–256 characters; the message says which rule it broke. */
export function checkNewPassword(password: string, param = 'password'): void {
  if (password.length < MIN_PASSWORD_CHARS) {
    throw new GatewayError('invalid_request', `the password must be at least ${MIN_PASSWORD_CHARS} characters long`, { param, code: 'weak_password' });
  }
  if (password.length > MAX_PASSWORD_CHARS) {
    throw new GatewayError('invalid_request', `the password must be at most ${MAX_PASSWORD_CHARS} characters long`, { param, code: 'invalid_password' });
  }
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const hash = await derive(password, salt, N, R, P);
  return ['scrypt', N, R, P, salt.toString('base64url'), hash.toString('base64url')].join('$');
}

/** A hash to check against when the account does not exist, so an unknown email takes as long as a wrong password. */
let decoy: Promise<string> | undefined;

/** Whether `password` matches `stored`; with no stored hash, spends the same time and answers false. */
export async function verifyPassword(password: string, stored: string | null): Promise<boolean> {
  if (password.length > MAX_PASSWORD_CHARS) return false;
  if (stored === null) {
    decoy ??= hashPassword(randomBytes(12).toString('base64url'));
    await verifyPassword(password, await decoy);
    return false;
  }
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64url');
  const actual = await derive(password, Buffer.from(salt, 'base64url'), Number(n), Number(r), Number(p));
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}
