import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../core/errors.js';
import { renderImagegen2Error } from './render-error.js';

describe('renderImagegen2Error', () => {
  it('answers {detail} with the status of the error kind', () => {
    const cases: Array<[GatewayError, number]> = [
      [new GatewayError('invalid_request', 'image_weight: must be ≤ 1, got 2', { param: 'image_weight' }), 400],
      [new GatewayError('authentication', 'missing API key'), 401],
      [new GatewayError('permission', 'this key may not use imagegen2-v3'), 403],
      [new GatewayError('not_found', 'model nope not found'), 404],
      [new GatewayError('request_too_large', 'too big'), 413],
      [new GatewayError('rate_limit', 'slow down', { retryAfter: 3 }), 429],
      [new GatewayError('upstream', 'upstream unreachable'), 502],
      [new GatewayError('timeout', 'too slow'), 504],
    ];
    for (const [error, status] of cases) {
      expect(renderImagegen2Error(error, 'req_1')).toEqual({ status, body: { detail: error.message }, headers: { 'x-request-id': 'req_1' } });
    }
  });

  it('answers a safety refusal with 422, as Ideogram does', () => {
    const error = new GatewayError('invalid_request', 'Prompt failed the safety check.', { code: 'content_policy_violation' });
    expect(renderImagegen2Error(error, 'req_2')).toEqual({
      status: 422,
      body: { detail: 'Prompt failed the safety check.' },
      headers: { 'x-request-id': 'req_2' },
    });
  });
});
