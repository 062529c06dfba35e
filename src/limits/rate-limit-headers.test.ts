import { describe, expect, it } from 'vitest';
import { goDuration, rateLimitHeaders } from './rate-limit-headers.js';

describe('rate-limit headers', () => {
  it('writes resets as OpenAI does: Go durations', () => {
    expect(goDuration(120)).toBe('120ms');
    expect(goDuration(1000)).toBe('1s');
    expect(goDuration(1500)).toBe('1.5s');
    expect(goDuration(360_000)).toBe('6m0s');
    expect(goDuration(3_723_000)).toBe('1h2m3s');
  });

  it('OpenAI style: the limit, the remaining and the reset of requests and tokens', () => {
    const now = 1_000_000;
    const headers = rateLimitHeaders(
      { requests: { limit: 30, remaining: 29, resetAt: now + 2000 }, tokens: { limit: 1000, remaining: 12.7, resetAt: now + 90_000 } },
      'openai',
      now,
    );
    expect(headers).toEqual({
      'x-ratelimit-limit-requests': '30',
      'x-ratelimit-remaining-requests': '29',
      'x-ratelimit-reset-requests': '2s',
      'x-ratelimit-limit-tokens': '1000',
      'x-ratelimit-remaining-tokens': '12',
      'x-ratelimit-reset-tokens': '1m30s',
    });
  });

  it('Anthropic style: RFC 3339 resets, and the budget warning header', () => {
    const now = Date.UTC(2026, 0, 1, 0, 0, 0);
    const headers = rateLimitHeaders(
      { requests: { limit: 5, remaining: 0, resetAt: now + 1500 }, budgetWarnings: ['key monthly budget of $5.00: past its warning threshold'] },
      'anthropic',
      now,
    );
    expect(headers).toEqual({
      'anthropic-ratelimit-requests-limit': '5',
      'anthropic-ratelimit-requests-remaining': '0',
      'anthropic-ratelimit-requests-reset': '2026-01-01T00:00:02Z',
      'x-gengate-budget-warning': 'key monthly budget of $5.00: past its warning threshold',
    });
  });
});
