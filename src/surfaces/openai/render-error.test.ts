import { describe, expect, it } from 'vitest';
import { GatewayError, type ErrorKind } from '../../core/errors.js';
import { renderOpenAIError } from './render-error.js';

describe('renderOpenAIError', () => {
  it('renders an invalid request with its param and all four keys', () => {
    const rendered = renderOpenAIError(new GatewayError('invalid_request', 'stop: at most 4 entries are allowed, got 5', { param: 'stop' }), 'req-1');
    expect(rendered).toEqual({
      status: 400,
      body: { error: { message: 'stop: at most 4 entries are allowed, got 5', type: 'invalid_request_error', param: 'stop', code: null } },
      headers: { 'x-request-id': 'req-1' },
    });
  });

  it.each<[ErrorKind, string, number, string, string | null]>([
    ['authentication', 'Incorrect API key provided', 401, 'invalid_request_error', 'invalid_api_key'],
    ['permission', 'this key may not use textmodel-b-4', 403, 'permission_error', null],
    ['not_found', 'The model `nope` does not exist', 404, 'invalid_request_error', 'model_not_found'],
    ['not_found', 'no such task', 404, 'invalid_request_error', null],
    ['request_too_large', 'request body is too large', 413, 'invalid_request_error', 'request_too_large'],
    ['rate_limit', 'slow down', 429, 'rate_limit_error', 'rate_limit_exceeded'],
    ['insufficient_quota', 'budget exhausted', 429, 'insufficient_quota', 'insufficient_quota'],
    ['upstream', 'upstream unreachable', 502, 'server_error', 'upstream_error'],
    ['timeout', 'upstream did not answer', 504, 'server_error', 'timeout'],
    ['overloaded', 'all channels busy', 503, 'server_error', 'overloaded'],
    ['internal', 'internal error', 500, 'server_error', null],
  ])('renders %s (%s) as %i %s / %s', (kind, message, status, type, code) => {
    const rendered = renderOpenAIError(new GatewayError(kind, message), 'req-2');
    expect(rendered.status).toBe(status);
    expect(rendered.body).toEqual({ error: { message, type, param: null, code } });
  });

  it("uses the error's own status and code when set", () => {
    const rendered = renderOpenAIError(
      new GatewayError('invalid_request', 'unsupported content type: text/plain', { status: 415, code: 'unsupported_media_type' }),
      'req-3',
    );
    expect(rendered.status).toBe(415);
    expect(rendered.body).toEqual({
      error: { message: 'unsupported content type: text/plain', type: 'invalid_request_error', param: null, code: 'unsupported_media_type' },
    });
  });
});
