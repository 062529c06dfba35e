import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../core/errors.js';
import { renderVideogen1Error } from './render-error.js';

describe('renderVideogen1Error', () => {
  it('answers the envelope with a non-zero code per kind and the kind’s HTTP status', () => {
    expect(renderVideogen1Error(new GatewayError('invalid_request', 'prompt: is required'), 'r1')).toEqual({
      status: 400,
      body: { code: 1001, message: 'prompt: is required', data: null },
      headers: { 'x-request-id': 'r1' },
    });
    expect(renderVideogen1Error(new GatewayError('insufficient_quota', 'budget spent'), 'r2')).toMatchObject({ status: 429, body: { code: 1007 } });
    expect(renderVideogen1Error(new GatewayError('rate_limit', 'slow down'), 'r3')).toMatchObject({ status: 429, body: { code: 1006 } });
    expect(renderVideogen1Error(new GatewayError('upstream', 'vendor failed'), 'r4')).toMatchObject({ status: 502, body: { code: 1008 } });
    expect(renderVideogen1Error(new GatewayError('internal', 'oops'), 'r5')).toMatchObject({ status: 500, body: { code: 1000 } });
  });
});
