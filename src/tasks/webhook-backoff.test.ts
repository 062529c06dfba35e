import { describe, expect, it } from 'vitest';
import { DEFAULT_WEBHOOK_BACKOFF, webhookRetryDelayMs } from './webhook-backoff.js';

describe('webhook retry delays', () => {
  it('doubles from 5 s and stops growing at 10 min', () => {
    const middle = () => 0.5;
    expect([1, 2, 3, 4].map((n) => webhookRetryDelayMs(n, DEFAULT_WEBHOOK_BACKOFF, middle))).toEqual([5_000, 10_000, 20_000, 40_000]);
    expect(webhookRetryDelayMs(8, DEFAULT_WEBHOOK_BACKOFF, middle)).toBe(600_000);
    expect(webhookRetryDelayMs(10_000, DEFAULT_WEBHOOK_BACKOFF, middle)).toBe(600_000);
  });

  it('spreads each delay by at most 20 % either way', () => {
    expect(webhookRetryDelayMs(2, DEFAULT_WEBHOOK_BACKOFF, () => 0)).toBe(8_000);
    expect(webhookRetryDelayMs(2, DEFAULT_WEBHOOK_BACKOFF, () => 0.999999)).toBe(12_000);
    for (let i = 0; i < 100; i++) {
      const delay = webhookRetryDelayMs(3, DEFAULT_WEBHOOK_BACKOFF);
      expect(delay).toBeGreaterThanOrEqual(16_000);
      expect(delay).toBeLessThanOrEqual(24_000);
    }
  });
});
