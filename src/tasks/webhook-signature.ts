/**
 * The signature on every client webhook: `x-gengate-signature: t=<unix seconds>,v1=<hex
 * HMAC-SHA256 of "<t>.<body>">` under the owner's secret. The timestamp inside the signed text
 * lets a receiver refuse replays of old deliveries; several `v1` entries may appear (e.g. while
 * a secret is rotated), and one match is enough. The HMAC key is the secret exactly as written
 * (the whole `whsec_…` text).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

/** A header longer than this is refused unread. */
const MAX_HEADER_CHARS = 4096;
const HEX_SHA256 = /^[0-9a-fA-F]{64}$/;

function digest(secret: string, body: string | Uint8Array, unixSeconds: number): Buffer {
  return createHmac('sha256', secret).update(`${unixSeconds}.`).update(body).digest();
}

/** The `x-gengate-signature` header value for `body` sent at `unixSeconds`. */
export function signWebhook(secret: string, body: string | Uint8Array, unixSeconds: number): string {
  return `t=${unixSeconds},v1=${digest(secret, body, unixSeconds).toString('hex')}`;
}

interface VerifyOptions {
  /** How far the signed time may be from `now`, either way (default 300). */
  toleranceSeconds?: number;
  /** The receiver's clock in Unix seconds (default: the current time). */
  now?: number;
}

/** True when `header` carries a `v1` signature of `body` by `secret`, made within the tolerance of now. */
export function verifyWebhookSignature(secret: string, header: string | undefined, body: string | Uint8Array, options: VerifyOptions = {}): boolean {
  if (typeof header !== 'string' || header.length > MAX_HEADER_CHARS) return false;
  let timestamp: number | undefined;
  const candidates: Buffer[] = [];
  for (const part of header.split(',')) {
    const at = part.indexOf('=');
    if (at < 0) continue;
    const key = part.slice(0, at).trim();
    const value = part.slice(at + 1).trim();
    if (key === 't') {
      if (timestamp !== undefined || !/^\d{1,12}$/.test(value)) return false;
      timestamp = Number(value);
    } else if (key === 'v1' && HEX_SHA256.test(value)) {
      candidates.push(Buffer.from(value, 'hex'));
    }
  }
  if (timestamp === undefined || candidates.length === 0) return false;
  const now = options.now ?? Math.floor(Date.now() / 1000);
  if (Math.abs(now - timestamp) > (options.toleranceSeconds ?? 300)) return false;
  const expected = digest(secret, body, timestamp);
  // Every candidate is compared, so the time taken does not say which one matched.
  let matched = false;
  for (const candidate of candidates) matched = timingSafeEqual(candidate, expected) || matched;
  return matched;
}
