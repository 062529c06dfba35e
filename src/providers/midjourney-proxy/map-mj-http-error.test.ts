import { describe, expect, it } from 'vitest';
import { mapMjHttpError, retryAfterSeconds } from './map-mj-http-error.js';

describe('mapMjHttpError', () => {
  it('401/403: the gateway credentials were refused, retryable elsewhere', () => {
    for (const status of [401, 403]) {
      expect(mapMjHttpError(status, {}, undefined)).toMatchObject({
        kind: 'upstream',
        retryable: true,
        upstreamStatus: status,
        message: expect.stringContaining("upstream rejected the gateway's credentials"),
      });
    }
  });

  it('429: rate_limit with Retry-After in seconds', () => {
    expect(mapMjHttpError(429, { 'retry-after': '7' }, undefined)).toMatchObject({ kind: 'rate_limit', retryable: true, retryAfter: 7 });
    expect(mapMjHttpError(429, {}, undefined).retryAfter).toBeUndefined();
  });

  it('5xx: upstream, retryable; 504 a timeout', () => {
    expect(mapMjHttpError(500, {}, undefined)).toMatchObject({ kind: 'upstream', retryable: true });
    expect(mapMjHttpError(502, {}, undefined)).toMatchObject({ kind: 'upstream', retryable: true });
    expect(mapMjHttpError(504, {}, undefined)).toMatchObject({ kind: 'timeout', retryable: true });
  });

  it('a 4xx carrying a proxy code is read as that code; other 4xx are upstream errors', () => {
    expect(mapMjHttpError(400, {}, { code: 4, description: 'base64 format error' })).toMatchObject({
      kind: 'invalid_request',
      upstreamStatus: 400,
      message: expect.stringContaining('base64 format error'),
    });
    expect(mapMjHttpError(404, {}, { timestamp: 1, status: 404, error: 'Not Found', path: '/mj/submit/imagine' })).toMatchObject({
      kind: 'upstream',
      retryable: false,
    });
    expect(mapMjHttpError(400, {}, { message: 'bad' })).toMatchObject({ kind: 'upstream', retryable: false, message: expect.stringContaining('bad') });
  });
});

describe('retryAfterSeconds', () => {
  it('reads seconds or an HTTP date, bounded to an hour', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(retryAfterSeconds('30', now)).toBe(30);
    expect(retryAfterSeconds('Thu, 01 Jan 2026 00:00:10 GMT', now)).toBe(10);
    expect(retryAfterSeconds('Wed, 31 Dec 2025 00:00:00 GMT', now)).toBe(0);
    expect(retryAfterSeconds('999999', now)).toBe(3600);
    expect(retryAfterSeconds('soon', now)).toBeUndefined();
    expect(retryAfterSeconds(undefined, now)).toBeUndefined();
  });
});
