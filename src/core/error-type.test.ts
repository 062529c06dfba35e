import { describe, expect, it } from 'vitest';
import { ERROR_TYPES, errorTypeOfOutcome, isErrorType } from './error-type.js';
import { type ErrorKind, GatewayError, kindForUpstreamStatus } from './errors.js';

describe('the error vocabulary', () => {
  it('classifies errors raised by the gateway by their kind', () => {
    expect(new GatewayError('invalid_request', 'x').errorType).toBe('client.invalid_request');
    expect(new GatewayError('authentication', 'x').errorType).toBe('client.auth');
    expect(new GatewayError('rate_limit', 'x').errorType).toBe('policy.rate_limited');
    expect(new GatewayError('insufficient_quota', 'x').errorType).toBe('policy.budget');
    expect(new GatewayError('overloaded', 'draining').errorType).toBe('gateway.unavailable');
    expect(new GatewayError('internal', 'x').errorType).toBe('gateway.internal');
  });

  it('reclassifies what came out of an upstream attempt by what the upstream answered', () => {
    const cases: Array<[GatewayError, string]> = [
      [new GatewayError('rate_limit', 'x', { upstreamStatus: 429 }), 'upstream.rate_limited'],
      [new GatewayError('upstream', 'x', { upstreamStatus: 401 }), 'upstream.auth'],
      [new GatewayError('invalid_request', 'x', { upstreamStatus: 400 }), 'upstream.refused'],
      [new GatewayError('upstream', 'x', { upstreamStatus: 500 }), 'upstream.server_error'],
      [new GatewayError('overloaded', 'x', { upstreamStatus: 529 }), 'upstream.overloaded'],
      [new GatewayError('timeout', 'x'), 'upstream.timeout'],
      [new GatewayError('upstream', 'x', { code: 'upstream_unreachable' }), 'upstream.unreachable'],
      [new GatewayError('upstream', 'x', { code: 'client_closed' }), 'client.closed'],
      // Refused by the dialect before anything was sent: still the client's.
      [new GatewayError('invalid_request', 'x'), 'client.invalid_request'],
    ];
    for (const [error, type] of cases) {
      error.classifyAsUpstream();
      expect(error.errorType, error.message).toBe(type);
    }
  });

  it('types what an upstream answered by its status, through the kind the providers give it', () => {
    const byStatus: Array<[number, string]> = [
      [400, 'upstream.refused'],
      [404, 'upstream.refused'],
      [422, 'upstream.refused'],
      [401, 'upstream.auth'],
      [402, 'upstream.auth'],
      [403, 'upstream.auth'],
      [408, 'upstream.timeout'],
      [429, 'upstream.rate_limited'],
      [500, 'upstream.server_error'],
      [502, 'upstream.server_error'],
      [503, 'upstream.overloaded'],
      [504, 'upstream.timeout'],
      [529, 'upstream.overloaded'],
    ];
    for (const [status, type] of byStatus) {
      const { kind, retryable } = kindForUpstreamStatus(status);
      const error = new GatewayError(kind, `HTTP ${status}`, { upstreamStatus: status, retryable });
      error.classifyAsUpstream();
      expect({ status, type: error.errorType }).toEqual({ status, type });
    }
  });

  it('gives every kind raised by the gateway a type of the vocabulary', () => {
    const kinds: ErrorKind[] = [
      'invalid_request',
      'authentication',
      'permission',
      'not_found',
      'request_too_large',
      'rate_limit',
      'insufficient_quota',
      'upstream',
      'timeout',
      'overloaded',
      'internal',
    ];
    for (const kind of kinds) expect(isErrorType(new GatewayError(kind, 'x').errorType), kind).toBe(true);
    expect(new GatewayError('request_too_large', 'body').errorType).toBe('client.too_large');
    expect(new GatewayError('permission', 'x').errorType).toBe('client.permission');
  });

  it('keeps a type given where the error was raised', () => {
    const error = new GatewayError('upstream', 'x', { upstreamStatus: 500, errorType: 'gateway.internal' });
    error.classifyAsUpstream();
    expect(error.errorType).toBe('gateway.internal');
  });

  it('types an ending: none for success, client.closed for a client that left', () => {
    expect(errorTypeOfOutcome('ok', undefined)).toBeUndefined();
    expect(errorTypeOfOutcome('client_closed', undefined)).toBe('client.closed');
    expect(errorTypeOfOutcome('timeout', new GatewayError('timeout', 'x'))).toBe('upstream.timeout');
    expect(ERROR_TYPES.every(isErrorType)).toBe(true);
    expect(isErrorType('client.whatever')).toBe(false);
  });
});
