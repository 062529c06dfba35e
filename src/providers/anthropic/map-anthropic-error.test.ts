import { describe, expect, it } from 'vitest';
import { mapAnthropicError, mapAnthropicStreamError, parseAnthropicError } from './map-anthropic-error.js';

describe('mapAnthropicError', () => {
  const body = (type: string, message: string): string => JSON.stringify({ type: 'error', error: { type, message }, request_id: 'req_x' });

  it('reads the message and type of an Anthropic error body', () => {
    expect(parseAnthropicError(body('invalid_request_error', 'max_tokens: Field required'))).toEqual({
      type: 'invalid_request_error',
      message: 'max_tokens: Field required',
    });
    expect(parseAnthropicError('<html>Bad gateway</html>')).toEqual({ message: '<html>Bad gateway</html>', unparsed: true });
  });

  it.each([
    [400, 'invalid_request_error', 'invalid_request', false],
    [401, 'authentication_error', 'upstream', true],
    [404, 'not_found_error', 'not_found', false],
    [429, 'rate_limit_error', 'rate_limit', true],
    [500, 'api_error', 'upstream', true],
    [529, 'overloaded_error', 'overloaded', true],
  ])('status %i (%s) → kind %s, retryable %s', (status, type, kind, retryable) => {
    const error = mapAnthropicError(status, body(type, 'msg'), {});
    expect(error.kind).toBe(kind);
    expect(error.retryable).toBe(retryable);
    expect(error.upstreamStatus).toBe(status);
    expect(error.code).toBe(type);
    expect(error.message).toContain('msg');
  });

  it('keeps retry-after seconds', () => {
    expect(mapAnthropicError(429, body('rate_limit_error', 'slow down'), { 'retry-after': '7' }).retryAfter).toBe(7);
  });

  it('maps mid-stream error events by type', () => {
    const overloaded = mapAnthropicStreamError(JSON.stringify({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }));
    expect(overloaded.kind).toBe('overloaded');
    expect(overloaded.message).toBe('anthropic upstream: Overloaded');
    expect(mapAnthropicStreamError(JSON.stringify({ type: 'error', error: { type: 'api_error', message: 'x' } })).kind).toBe('upstream');
    expect(mapAnthropicStreamError('garbage').kind).toBe('upstream');
  });
});
