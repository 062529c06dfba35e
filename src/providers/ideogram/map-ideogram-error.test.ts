import { describe, expect, it } from 'vitest';
import { mapIdeogramError } from './map-ideogram-error.js';

describe('mapIdeogramError', () => {
  it('reads a 422 safety refusal as a client error marked content_policy_violation', () => {
    const error = mapIdeogramError(422, '{"detail":"Prompt failed the safety check."}', {});
    expect(error).toMatchObject({
      kind: 'invalid_request',
      status: 400,
      message: 'Prompt failed the safety check.',
      code: 'content_policy_violation',
      upstreamStatus: 422,
      retryable: false,
    });
  });

  it('reads a 422 list of invalid fields as a plain invalid request', () => {
    const body = JSON.stringify({ detail: [{ loc: ['body', 'image_weight'], msg: 'Input should be less than or equal to 100', type: 'less_than_equal' }] });
    const error = mapIdeogramError(422, body, {});
    expect(error).toMatchObject({ kind: 'invalid_request', message: 'image_weight: Input should be less than or equal to 100', code: undefined });
  });

  it('treats refused channel credentials as retryable on another channel', () => {
    for (const status of [401, 403]) {
      const error = mapIdeogramError(status, '{"detail":"Invalid API key"}', {});
      expect(error).toMatchObject({ kind: 'upstream', status: 502, retryable: true, upstreamStatus: status });
      expect(error.message).toBe('upstream refused the channel credentials: Invalid API key');
    }
  });

  it('maps 429 to a retryable rate limit with its Retry-After', () => {
    const error = mapIdeogramError(429, '{"detail":"Too many requests"}', { 'retry-after': '7' });
    expect(error).toMatchObject({ kind: 'rate_limit', status: 429, retryable: true, retryAfter: 7, message: 'Too many requests' });
  });

  it('maps 5xx and bodies that are not JSON', () => {
    expect(mapIdeogramError(500, 'Internal Server Error', {})).toMatchObject({ kind: 'upstream', retryable: true, message: 'Internal Server Error' });
    expect(mapIdeogramError(503, '', {})).toMatchObject({ kind: 'overloaded', message: 'upstream answered HTTP 503' });
    expect(mapIdeogramError(400, '{"detail":"Invalid input provided."}', {})).toMatchObject({ kind: 'invalid_request', retryable: false });
  });
});
