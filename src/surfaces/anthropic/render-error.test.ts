import { describe, expect, it } from 'vitest';
import { GatewayError, type ErrorKind } from '../../core/errors.js';
import { renderAnthropicError } from './render-error.js';

describe('renderAnthropicError', () => {
  it.each<[ErrorKind, number, string]>([
    ['invalid_request', 400, 'invalid_request_error'],
    ['authentication', 401, 'authentication_error'],
    ['permission', 403, 'permission_error'],
    ['not_found', 404, 'not_found_error'],
    ['request_too_large', 413, 'request_too_large'],
    ['rate_limit', 429, 'rate_limit_error'],
    ['insufficient_quota', 429, 'rate_limit_error'],
    ['internal', 500, 'api_error'],
    ['upstream', 502, 'api_error'],
    ['timeout', 504, 'api_error'],
    ['overloaded', 529, 'overloaded_error'],
  ])('renders %s as %i %s', (kind, status, type) => {
    const rendered = renderAnthropicError(new GatewayError(kind, 'something happened'), 'req_123');
    expect(rendered).toEqual({
      status,
      body: { type: 'error', error: { type, message: 'something happened' }, request_id: 'req_123' },
      headers: { 'request-id': 'req_123' },
    });
  });

  it('keeps an explicit status of an invalid request (e.g. 415)', () => {
    expect(renderAnthropicError(new GatewayError('invalid_request', 'bad type', { status: 415 }), 'r').status).toBe(415);
  });
});
