import { describe, expect, it } from 'vitest';
import { baseRespError, mapMinimaxHttpError, minimaxMessage } from './map-minimax-error.js';

const KEY = 'sk-minimax-secret-123';

describe('baseRespError', () => {
  it('is nothing for success', () => {
    expect(baseRespError({ status_code: 0, status_msg: 'success' }, [KEY])).toBeUndefined();
    expect(baseRespError(undefined, [KEY])).toBeUndefined();
  });

  it('maps each documented code to the right kind', () => {
    const cases: Array<[number, Record<string, unknown>]> = [
      [1002, { kind: 'rate_limit', retryable: true }],
      [1039, { kind: 'rate_limit', retryable: true }],
      [1004, { kind: 'upstream', retryable: true }],
      [1008, { kind: 'upstream', retryable: true }],
      [1026, { kind: 'invalid_request', retryable: false, code: 'content_policy' }],
      [1027, { kind: 'invalid_request', retryable: false, code: 'content_policy' }],
      [2013, { kind: 'invalid_request', retryable: false }],
      [1000, { kind: 'upstream', retryable: true }],
      [1013, { kind: 'upstream', retryable: true }],
    ];
    for (const [code, expected] of cases) {
      const error = baseRespError({ status_code: code, status_msg: 'vendor says so' }, [KEY]);
      expect(error, String(code)).toMatchObject(expected);
      expect(error!.message).toContain(`(${code})`);
      expect(error!.message).toContain('vendor says so');
    }
  });

  it('never repeats the channel key, even when the vendor echoes it', () => {
    const error = baseRespError({ status_code: 1004, status_msg: `invalid api key ${KEY}` }, [KEY])!;
    expect(error.message).not.toContain(KEY);
    expect(error.message).toBe('MiniMax refused the channel credentials (1004): invalid api key [redacted]');
  });
});

describe('mapMinimaxHttpError', () => {
  it('maps the HTTP status as usual, with the base_resp message or the body text', () => {
    expect(mapMinimaxHttpError(429, '{"base_resp":{"status_code":1002,"status_msg":"rate limit"}}', { 'retry-after': '3' }, [KEY])).toMatchObject({
      kind: 'rate_limit',
      retryable: true,
      retryAfter: 3,
      upstreamStatus: 429,
      message: 'rate limit',
    });
    expect(mapMinimaxHttpError(502, '<html>bad gateway</html>', {}, [KEY])).toMatchObject({
      kind: 'upstream',
      retryable: true,
      message: '<html>bad gateway</html>',
    });
    expect(mapMinimaxHttpError(500, '', {}, [KEY]).message).toBe('upstream answered HTTP 500');
  });
});

describe('minimaxMessage', () => {
  it('bounds the text and keeps non-strings out', () => {
    expect(minimaxMessage('x'.repeat(5000), [])).toHaveLength(500);
    expect(minimaxMessage({ a: 1 }, [])).toBe('');
  });
});
