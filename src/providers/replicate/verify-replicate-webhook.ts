/**
 * Replicate signs its webhooks the Standard Webhooks way: `webhook-signature` holds
 * space-separated `v1,<base64 HMAC-SHA256>` entries over `<webhook-id>.<webhook-timestamp>.<raw
 * body>`, keyed with the base64 part of the account's `whsec_…` signing secret. A delivery whose
 * timestamp is more than 5 minutes away from our clock is refused (a replay).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

const WEBHOOK_TOLERANCE_MS = 5 * 60_000;
const MAX_ID_CHARS = 256;
const MAX_SIGNATURE_HEADER_CHARS = 4_096;
const MAX_SIGNATURES = 16;

export type WebhookHeaders = Record<string, string | string[] | undefined>;

export function verifyReplicateWebhook(secret: unknown, headers: WebhookHeaders, body: Buffer, nowMs: number): boolean {
  const key = signingKey(secret);
  const id = single(headers['webhook-id']);
  const timestamp = single(headers['webhook-timestamp']);
  const signatures = single(headers['webhook-signature']);
  if (!key || !id || !timestamp || !signatures) return false;
  if (id.length > MAX_ID_CHARS || signatures.length > MAX_SIGNATURE_HEADER_CHARS) return false;
  if (!/^\d{1,12}$/.test(timestamp) || Math.abs(nowMs - Number(timestamp) * 1000) > WEBHOOK_TOLERANCE_MS) return false;

  const expected = createHmac('sha256', key).update(`${id}.${timestamp}.`).update(body).digest();
  let valid = false;
  for (const entry of signatures.split(' ').slice(0, MAX_SIGNATURES)) {
    const comma = entry.indexOf(',');
    if (comma < 0 || entry.slice(0, comma) !== 'v1') continue;
    const given = Buffer.from(entry.slice(comma + 1), 'base64');
    // Every entry is compared (no early exit), each in constant time.
    if (given.length === expected.length && timingSafeEqual(given, expected)) valid = true;
  }
  return valid;
}

/** `whsec_<base64>` → the key bytes; nothing for a missing or empty secret. */
function signingKey(secret: unknown): Buffer | undefined {
  if (typeof secret !== 'string') return undefined;
  const encoded = secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : secret;
  const key = Buffer.from(encoded, 'base64');
  return key.length > 0 ? key : undefined;
}

function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
