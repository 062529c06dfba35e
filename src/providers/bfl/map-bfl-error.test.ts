import { describe, expect, it } from 'vitest';
import { bflTaskError, mapBflError } from './map-bfl-error.js';

describe('mapBflError', () => {
  it('turns a 422 validation list into an invalid request naming the fields', () => {
    const body = JSON.stringify({
      detail: [
        { type: 'multiple_of', loc: ['body', 'width'], msg: 'Input should be a multiple of 32', input: 1000 },
        { type: 'less_than_equal', loc: ['body', 'height'], msg: 'Input should be less than or equal to 1440', input: 2000 },
      ],
    });
    const error = mapBflError(422, body, {});
    expect(error.kind).toBe('invalid_request');
    expect(error.status).toBe(400);
    expect(error.retryable).toBe(false);
    expect(error.message).toBe('width: Input should be a multiple of 32; height: Input should be less than or equal to 1440');
  });

  it('keeps 429 retryable with its Retry-After', () => {
    const error = mapBflError(429, JSON.stringify({ detail: 'Too many active tasks' }), { 'retry-after': '3' });
    expect(error).toMatchObject({ kind: 'rate_limit', retryable: true, retryAfter: 3, upstreamStatus: 429, message: 'Too many active tasks' });
  });

  it('makes 402 (no credits) a retryable upstream error', () => {
    const error = mapBflError(402, JSON.stringify({ detail: 'Insufficient credits' }), {});
    expect(error).toMatchObject({ kind: 'upstream', retryable: true, upstreamStatus: 402, message: 'BFL account out of credits: Insufficient credits' });
  });

  it('reads plain-text bodies', () => {
    expect(mapBflError(500, 'Internal Server Error', {}).message).toBe('Internal Server Error');
    expect(mapBflError(503, '', {}).message).toBe('upstream answered HTTP 503');
  });
});

describe('bflTaskError', () => {
  it('reports moderation as a content-policy invalid request', () => {
    const error = bflTaskError('Request Moderated', { 'Moderation Reasons': ['Derivative Works'] });
    expect(error).toMatchObject({ kind: 'invalid_request', status: 400, code: 'content_policy_violation', retryable: false });
    expect(error.message).toBe("The prompt was rejected by the image provider's content policy (moderated request) (Moderation Reasons: Derivative Works).");
    expect(bflTaskError('Content Moderated', null).message).toBe(
      "The generated image was withheld by the image provider's content policy (moderated content).",
    );
  });

  it('reports failed and lost tasks as retryable upstream errors', () => {
    expect(bflTaskError('Error', 'GPU fault')).toMatchObject({ kind: 'upstream', retryable: true, message: 'BFL task failed (Error): GPU fault' });
    expect(bflTaskError('Task not found', null)).toMatchObject({ kind: 'upstream', retryable: true });
  });
});
