/**
 * How Replicate (following the Standard Webhooks specification) signs a webhook delivery:
 * HMAC-SHA256 over `<id>.<timestamp>.<body>`, keyed with the base64 part of the `whsec_…`
 * secret, sent as `webhook-signature: v1,<base64>`. Written from the specification, apart from
 * the gateway's verifier, so that tests check one against the other.
 */
import { createHmac, randomBytes } from 'node:crypto';

export interface SignedWebhookHeaders {
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
}

export function signStandardWebhook(
  secret: string,
  body: string,
  timestampSeconds: number,
  id = `msg_${randomBytes(12).toString('hex')}`,
): SignedWebhookHeaders {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const signature = createHmac('sha256', key).update(`${id}.${timestampSeconds}.${body}`).digest('base64');
  return { 'webhook-id': id, 'webhook-timestamp': String(timestampSeconds), 'webhook-signature': `v1,${signature}` };
}

/** A fresh random `whsec_…` secret, as Replicate hands one out. */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(24).toString('base64')}`;
}
