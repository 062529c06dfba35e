import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { signWebhook, verifyWebhookSignature } from './webhook-signature.js';

const SECRET = 'whsec_test-secret';
const BODY = '{"id":"task_1","status":"SUCCESS","progress":"100%"}';
const T = 1_750_000_000;

describe('webhook signatures', () => {
  it('signs "<t>.<body>" with HMAC-SHA256, as documented', () => {
    const expected = createHmac('sha256', SECRET).update(`${T}.${BODY}`).digest('hex');
    expect(signWebhook(SECRET, BODY, T)).toBe(`t=${T},v1=${expected}`);
    expect(signWebhook(SECRET, Buffer.from(BODY), T)).toBe(`t=${T},v1=${expected}`);
  });

  it('verifies its own signature within the tolerance', () => {
    const header = signWebhook(SECRET, BODY, T);
    expect(verifyWebhookSignature(SECRET, header, BODY, { now: T })).toBe(true);
    expect(verifyWebhookSignature(SECRET, header, Buffer.from(BODY), { now: T + 300 })).toBe(true);
    expect(verifyWebhookSignature(SECRET, header, BODY, { now: T - 300 })).toBe(true);
  });

  it('refuses a tampered body, a wrong secret and a stale or future timestamp', () => {
    const header = signWebhook(SECRET, BODY, T);
    expect(verifyWebhookSignature(SECRET, header, BODY.replace('SUCCESS', 'FAILURE'), { now: T })).toBe(false);
    expect(verifyWebhookSignature(`${SECRET}x`, header, BODY, { now: T })).toBe(false);
    expect(verifyWebhookSignature(SECRET, header, BODY, { now: T + 301 })).toBe(false);
    expect(verifyWebhookSignature(SECRET, header, BODY, { now: T - 301 })).toBe(false);
    expect(verifyWebhookSignature(SECRET, header, BODY, { now: T + 3600, toleranceSeconds: 3600 })).toBe(true);
  });

  it('refuses a timestamp moved without re-signing (the time is part of the signed text)', () => {
    const v1 = signWebhook(SECRET, BODY, T).split('v1=')[1];
    expect(verifyWebhookSignature(SECRET, `t=${T + 60},v1=${v1}`, BODY, { now: T + 60 })).toBe(false);
  });

  it('accepts the header when any of several v1 entries matches, in any order and spacing', () => {
    const good = signWebhook(SECRET, BODY, T).split('v1=')[1];
    const other = signWebhook('whsec_old', BODY, T).split('v1=')[1];
    expect(verifyWebhookSignature(SECRET, `v1=${other}, t=${T}, v1=${good}`, BODY, { now: T })).toBe(true);
    expect(verifyWebhookSignature(SECRET, `t=${T},v0=${good},v1=${other}`, BODY, { now: T })).toBe(false);
  });

  it('refuses malformed headers', () => {
    const good = signWebhook(SECRET, BODY, T);
    const v1 = good.split('v1=')[1];
    for (const header of [
      undefined,
      '',
      v1,
      `t=${T}`,
      `v1=${v1}`,
      `t=abc,v1=${v1}`,
      `t=${T},t=${T},v1=${v1}`,
      `t=${T},v1=${v1.slice(1)}`,
      `${good},${'x'.repeat(5000)}`,
    ]) {
      expect(verifyWebhookSignature(SECRET, header, BODY, { now: T })).toBe(false);
    }
  });
});
