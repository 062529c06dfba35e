import { describe, expect, it } from 'vitest';
import { mapOpenAIError, mapOpenAIStreamError } from './map-openai-error.js';

describe('mapOpenAIError', () => {
  it('reads the OpenAI error shape; 400 is the client’s fault and not retryable', () => {
    const error = mapOpenAIError(
      400,
      JSON.stringify({ error: { message: "Invalid value for 'temperature'.", type: 'invalid_request_error', param: 'temperature', code: 'invalid_value' } }),
      {},
    );
    expect(error.kind).toBe('invalid_request');
    expect(error.message).toBe("Invalid value for 'temperature'.");
    expect(error.code).toBe('invalid_value');
    expect(error.status).toBe(400);
    expect(error.upstreamStatus).toBe(400);
    expect(error.retryable).toBe(false);
  });

  it('turns 401 into a retryable upstream error without the credential code', () => {
    const error = mapOpenAIError(
      401,
      JSON.stringify({ error: { message: 'Incorrect API key provided: sk-****abcd.', type: 'invalid_request_error', param: null, code: 'invalid_api_key' } }),
      {},
    );
    expect(error.kind).toBe('upstream');
    expect(error.status).toBe(502);
    expect(error.retryable).toBe(true);
    expect(error.code).toBeUndefined();
    expect(error.message).toBe('upstream refused the channel credentials: Incorrect API key provided: sk-****abcd.');
  });

  it('keeps 429 retryable with its retry-after', () => {
    const error = mapOpenAIError(
      429,
      JSON.stringify({ error: { message: 'Rate limit reached', type: 'requests', param: null, code: 'rate_limit_exceeded' } }),
      { 'retry-after': '7' },
    );
    expect(error.kind).toBe('rate_limit');
    expect(error.retryable).toBe(true);
    expect(error.retryAfter).toBe(7);
    expect(error.code).toBe('rate_limit_exceeded');
  });

  it.each([
    [
      'an Ollama string error',
      404,
      '{"error":"model \\"llama9\\" not found, try pulling it first"}',
      'model "llama9" not found, try pulling it first',
      'not_found',
    ],
    [
      'a vLLM top-level message',
      400,
      '{"object":"error","message":"max_tokens is too large","type":"BadRequestError","code":400}',
      'max_tokens is too large',
      'invalid_request',
    ],
    ['a FastAPI detail', 422, '{"detail":"Field required"}', 'Field required', 'invalid_request'],
    ['an HTML page', 502, '<html><h1>502 Bad Gateway</h1></html>', '<html><h1>502 Bad Gateway</h1></html>', 'upstream'],
    ['an empty body', 503, '', 'upstream answered HTTP 503', 'overloaded'],
  ])('reads %s', (_label, status, body, message, kind) => {
    const error = mapOpenAIError(status, body, {});
    expect(error.message).toBe(message);
    expect(error.kind).toBe(kind);
  });
});

describe('mapOpenAIStreamError', () => {
  it('makes a non-retryable error from an in-stream error chunk', () => {
    const error = mapOpenAIStreamError({ error: { message: 'The server had an error', type: 'server_error', param: null, code: null } });
    expect(error.kind).toBe('upstream');
    expect(error.retryable).toBe(false);
    expect(error.message).toBe('upstream stream failed: The server had an error');
  });
});
