import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { verifyReplicateWebhook } from './verify-replicate-webhook.js';

// The example from the Standard Webhooks specification, which Replicate follows.
const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const ID = 'msg_p5jXN8AQM9LWM0D4loKWxJek';
const TIMESTAMP = '1614265330';
const BODY = Buffer.from('{"test": 2432232314}');
const SIGNATURE = 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=';
const NOW = Number(TIMESTAMP) * 1000;
const headers = (signature = SIGNATURE, timestamp = TIMESTAMP) => ({ 'webhook-id': ID, 'webhook-timestamp': timestamp, 'webhook-signature': signature });

describe('verifyReplicateWebhook', () => {
  it('accepts the specification example', () => {
    expect(verifyReplicateWebhook(SECRET, headers(), BODY, NOW)).toBe(true);
  });

  it('accepts a valid signature among several entries', () => {
    expect(verifyReplicateWebhook(SECRET, headers(`v1,AAAA v1a,xyz ${SIGNATURE}`), BODY, NOW)).toBe(true);
  });

  it('refuses a changed body, id or signature, and another secret', () => {
    expect(verifyReplicateWebhook(SECRET, headers(), Buffer.from('{"test": 2432232315}'), NOW)).toBe(false);
    expect(verifyReplicateWebhook(SECRET, { ...headers(), 'webhook-id': 'msg_other' }, BODY, NOW)).toBe(false);
    expect(verifyReplicateWebhook(SECRET, headers('v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ2OE='), BODY, NOW)).toBe(false);
    expect(verifyReplicateWebhook('whsec_dGhlIG90aGVyIHNlY3JldA==', headers(), BODY, NOW)).toBe(false);
  });

  it('refuses a timestamp more than 5 minutes away, either way', () => {
    expect(verifyReplicateWebhook(SECRET, headers(), BODY, NOW + 5 * 60_000)).toBe(true);
    expect(verifyReplicateWebhook(SECRET, headers(), BODY, NOW + 5 * 60_000 + 1_000)).toBe(false);
    expect(verifyReplicateWebhook(SECRET, headers(), BODY, NOW - 5 * 60_000 - 1_000)).toBe(false);
    // A re-signed delivery with a timestamp that is not a number.
    const key = Buffer.from(SECRET.slice(6), 'base64');
    const odd = createHmac('sha256', key).update(`${ID}.1e9.`).update(BODY).digest('base64');
    expect(verifyReplicateWebhook(SECRET, headers(`v1,${odd}`, '1e9'), BODY, 1e12)).toBe(false);
  });

  it('refuses without a secret or without the headers', () => {
    expect(verifyReplicateWebhook(undefined, headers(), BODY, NOW)).toBe(false);
    expect(verifyReplicateWebhook('', headers(), BODY, NOW)).toBe(false);
    expect(verifyReplicateWebhook('whsec_', headers(), BODY, NOW)).toBe(false);
    expect(verifyReplicateWebhook(SECRET, { 'webhook-id': ID, 'webhook-timestamp': TIMESTAMP }, BODY, NOW)).toBe(false);
    expect(verifyReplicateWebhook(SECRET, headers('g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE='), BODY, NOW)).toBe(false);
  });
});
