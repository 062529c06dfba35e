import { describe, expect, it } from 'vitest';
import { mapReplicateError, predictionError } from './map-replicate-error.js';

describe('mapReplicateError', () => {
  it('turns a 422 into an invalid request listing the invalid fields', () => {
    const body = JSON.stringify({
      title: 'Input validation failed',
      detail: '- input.num_outputs: Must be less than or equal to 4\n',
      status: 422,
      invalid_fields: [{ type: 'number_lte', field: 'input.num_outputs', description: 'Must be less than or equal to 4' }],
    });
    expect(mapReplicateError(422, body, {})).toMatchObject({
      kind: 'invalid_request',
      status: 400,
      retryable: false,
      message: 'Input validation failed: input.num_outputs: Must be less than or equal to 4',
    });
  });

  it('uses the detail of other problems', () => {
    const throttled = JSON.stringify({ title: 'Request was throttled', detail: 'Request was throttled. Your rate limit resets in ~1s.', status: 429 });
    expect(mapReplicateError(429, throttled, { 'retry-after': '1' })).toMatchObject({
      kind: 'rate_limit',
      retryable: true,
      retryAfter: 1,
      message: 'Request was throttled. Your rate limit resets in ~1s.',
    });
    const credit = JSON.stringify({ title: 'Insufficient credit', detail: 'You have insufficient credit to run this model.', status: 402 });
    expect(mapReplicateError(402, credit, {})).toMatchObject({
      kind: 'upstream',
      retryable: true,
      upstreamStatus: 402,
      message: 'Replicate account out of credit: You have insufficient credit to run this model.',
    });
    expect(mapReplicateError(400, JSON.stringify({ title: 'Bad request', detail: 'The input is not valid JSON', status: 400 }), {}).kind).toBe(
      'invalid_request',
    );
  });

  it('refused credentials are the channel problem, retryable', () => {
    const error = mapReplicateError(
      401,
      JSON.stringify({ title: 'Unauthenticated', detail: 'You did not pass a valid authentication token', status: 401 }),
      {},
    );
    expect(error).toMatchObject({
      kind: 'upstream',
      retryable: true,
      message: 'upstream refused the channel credentials: You did not pass a valid authentication token',
    });
  });
});

describe('predictionError', () => {
  it('reports safety failures as content-policy 400s', () => {
    expect(predictionError('failed', 'NSFW content detected. Try running it again, or try a different prompt.')).toMatchObject({
      kind: 'invalid_request',
      status: 400,
      code: 'content_policy_violation',
      retryable: false,
      message: 'The image provider refused the request under its content policy: NSFW content detected. Try running it again, or try a different prompt.',
    });
  });

  it('reports other failures and upstream cancels as retryable upstream errors', () => {
    expect(predictionError('failed', 'CUDA error: out of memory')).toMatchObject({
      kind: 'upstream',
      retryable: true,
      message: 'Replicate prediction failed: CUDA error: out of memory',
    });
    expect(predictionError('canceled', null)).toMatchObject({ kind: 'upstream', retryable: true, message: 'the Replicate prediction was canceled upstream' });
  });
});
