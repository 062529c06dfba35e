import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../core/errors.js';
import { renderImagegen1Error } from './render-error.js';

describe('renderImagegen1Error', () => {
  it('answers Replicate’s {title, detail, status} with the error’s HTTP status', () => {
    expect(renderImagegen1Error(new GatewayError('invalid_request', 'prompt: is required', { status: 422 }), 'r1')).toEqual({
      status: 422,
      body: { title: 'Input validation failed', detail: 'prompt: is required', status: 422 },
      headers: { 'x-request-id': 'r1' },
    });
    expect(renderImagegen1Error(new GatewayError('rate_limit', 'slow down'), 'r2').body).toEqual({
      title: 'Request was throttled',
      detail: 'slow down',
      status: 429,
    });
    expect(renderImagegen1Error(new GatewayError('insufficient_quota', 'budget spent'), 'r3').body).toEqual({
      title: 'Insufficient credit',
      detail: 'budget spent',
      status: 429,
    });
    expect(renderImagegen1Error(new GatewayError('upstream', 'upstream failed', { status: 599 }), 'r4').body).toMatchObject({
      title: 'Server error',
      status: 599,
    });
  });
});
