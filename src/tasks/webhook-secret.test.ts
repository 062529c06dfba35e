import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { webhookSecretFor } from './webhook-secret.js';

const KEY = Buffer.alloc(32, 7);

describe('per-owner webhook secrets', () => {
  it('is whsec_ + base64url(HMAC-SHA256(secret key, "gengate-webhook:" + owner))', () => {
    const mac = createHmac('sha256', KEY).update('gengate-webhook:key_123').digest('base64url');
    expect(webhookSecretFor(KEY, 'key_123')).toBe(`whsec_${mac}`);
    expect(webhookSecretFor(KEY, 'key_123')).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
  });

  it('differs between owners and between gateway keys, and is stable', () => {
    const secret = webhookSecretFor(KEY, 'key_123');
    expect(webhookSecretFor(KEY, 'key_123')).toBe(secret);
    expect(webhookSecretFor(KEY, 'key_124')).not.toBe(secret);
    expect(webhookSecretFor(Buffer.alloc(32, 8), 'key_123')).not.toBe(secret);
  });
});
