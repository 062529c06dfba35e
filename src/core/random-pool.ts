/**
 * Random bytes for ids, drawn from a pool the CSPRNG refills 4 KiB at a time: one
 * `randomFillSync` call per few hundred ids instead of one per id (each call costs a trip into
 * C++ that showed as 6 % of a streamed Responses call's CPU). The bytes are as unpredictable as
 * `randomBytes`'s; each is handed out once. Callers read the returned view at once, before the
 * next draw can refill the pool.
 */
import { randomFillSync } from 'node:crypto';

const POOL_BYTES = 4096;
const pool = Buffer.allocUnsafe(POOL_BYTES);
let next = POOL_BYTES;

/** `length` (≤ 4096) fresh random bytes, valid until the next call. */
export function drawRandomBytes(length: number): Buffer {
  if (length > POOL_BYTES) throw new RangeError(`drawRandomBytes: at most ${POOL_BYTES} bytes at a time`);
  if (next + length > POOL_BYTES) {
    randomFillSync(pool);
    next = 0;
  }
  const bytes = pool.subarray(next, next + length);
  next += length;
  return bytes;
}

/** `byteLength` random bytes as lowercase hexadecimal. */
export function randomHex(byteLength: number): string {
  return drawRandomBytes(byteLength).toString('hex');
}
