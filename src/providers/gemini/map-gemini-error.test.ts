import { describe, expect, it } from 'vitest';
import { mapGeminiError, mapGeminiStreamError } from './map-gemini-error.js';

describe('mapGeminiError', () => {
  it('uses Google’s message and status name', () => {
    const error = mapGeminiError(
      400,
      JSON.stringify({ error: { code: 400, message: 'Invalid JSON payload received. Unknown name "foo": Cannot find field.', status: 'INVALID_ARGUMENT' } }),
      {},
    );
    expect(error.kind).toBe('invalid_request');
    expect(error.status).toBe(400);
    expect(error.retryable).toBe(false);
    expect(error.code).toBe('INVALID_ARGUMENT');
    expect(error.message).toBe('gemini upstream: Invalid JSON payload received. Unknown name "foo": Cannot find field.');
  });

  it('treats an invalid API key (a 400 from Google) as a refused channel credential', () => {
    const error = mapGeminiError(
      400,
      JSON.stringify({
        error: {
          code: 400,
          message: 'API key not valid. Please pass a valid API key.',
          status: 'INVALID_ARGUMENT',
          details: [{ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'API_KEY_INVALID' }],
        },
      }),
      {},
    );
    expect(error.kind).toBe('upstream');
    expect(error.retryable).toBe(true);
    expect(error.message).toBe('upstream refused the channel credentials: gemini upstream: API key not valid. Please pass a valid API key.');
  });

  it('takes the retry delay of a 429 from its RetryInfo detail', () => {
    const error = mapGeminiError(
      429,
      JSON.stringify({
        error: {
          code: 429,
          message: 'quota',
          status: 'RESOURCE_EXHAUSTED',
          details: [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '6.5s' }],
        },
      }),
      {},
    );
    expect(error.kind).toBe('rate_limit');
    expect(error.retryable).toBe(true);
    expect(error.retryAfter).toBe(7);
    expect(error.upstreamStatus).toBe(429);
  });

  it('falls back to the raw text of a non-JSON answer', () => {
    const error = mapGeminiError(503, '<html>Service Unavailable</html>', {});
    expect(error.kind).toBe('overloaded');
    expect(error.message).toBe('gemini upstream: <html>Service Unavailable</html>');
  });
});

describe('mapGeminiStreamError', () => {
  it('maps the error chunk by its code', () => {
    const error = mapGeminiStreamError({ code: 503, message: 'The model is overloaded.', status: 'UNAVAILABLE' });
    expect(error.kind).toBe('overloaded');
    expect(error.message).toBe('gemini upstream: The model is overloaded.');
    expect(error.code).toBe('UNAVAILABLE');
  });
});
