import { describe, expect, it } from 'vitest';
import { GatewayError, type ErrorKind } from '../../core/errors.js';
import { renderGeminiError } from './render-error.js';

describe('renderGeminiError', () => {
  it.each<[ErrorKind, number, string]>([
    ['invalid_request', 400, 'INVALID_ARGUMENT'],
    ['permission', 403, 'PERMISSION_DENIED'],
    ['not_found', 404, 'NOT_FOUND'],
    ['request_too_large', 413, 'INVALID_ARGUMENT'],
    ['rate_limit', 429, 'RESOURCE_EXHAUSTED'],
    ['insufficient_quota', 429, 'RESOURCE_EXHAUSTED'],
    ['internal', 500, 'INTERNAL'],
    ['upstream', 502, 'UNAVAILABLE'],
    ['overloaded', 503, 'UNAVAILABLE'],
    ['timeout', 504, 'DEADLINE_EXCEEDED'],
  ])('%s → HTTP %i with status %s', (kind, status, name) => {
    expect(renderGeminiError(new GatewayError(kind, 'something happened'))).toEqual({
      status,
      body: { error: { code: status, message: 'something happened', status: name } },
    });
  });

  it('answers a key it does not accept as Google does: 400 INVALID_ARGUMENT with ErrorInfo API_KEY_INVALID', () => {
    const error = new GatewayError('authentication', 'Invalid API key. Pass a valid gengate key.', { code: 'invalid_api_key' });
    expect(renderGeminiError(error)).toEqual({
      status: 400,
      body: {
        error: {
          code: 400,
          message: 'Invalid API key. Pass a valid gengate key.',
          status: 'INVALID_ARGUMENT',
          details: [
            {
              '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
              reason: 'API_KEY_INVALID',
              domain: 'googleapis.com',
              metadata: { service: 'generativelanguage.googleapis.com' },
            },
            { '@type': 'type.googleapis.com/google.rpc.LocalizedMessage', locale: 'en-US', message: 'Invalid API key. Pass a valid gengate key.' },
          ],
        },
      },
    });
  });

  it('answers a request without any key as Google does: 403 PERMISSION_DENIED', () => {
    const error = new GatewayError('authentication', 'No API key provided.', { code: 'missing_api_key' });
    expect(renderGeminiError(error)).toEqual({ status: 403, body: { error: { code: 403, message: 'No API key provided.', status: 'PERMISSION_DENIED' } } });
  });

  it('adds a field violation naming the field of a validation error', () => {
    const error = new GatewayError('invalid_request', 'contents[0].parts[1].inlineData.data: is required', { param: 'contents[0].parts[1].inlineData.data' });
    expect(renderGeminiError(error)).toEqual({
      status: 400,
      body: {
        error: {
          code: 400,
          message: 'contents[0].parts[1].inlineData.data: is required',
          status: 'INVALID_ARGUMENT',
          details: [
            {
              '@type': 'type.googleapis.com/google.rpc.BadRequest',
              fieldViolations: [{ field: 'contents[0].parts[1].inlineData.data', description: 'contents[0].parts[1].inlineData.data: is required' }],
            },
          ],
        },
      },
    });
  });

  it('keeps an overridden status such as 415', () => {
    expect(renderGeminiError(new GatewayError('invalid_request', 'unsupported content type', { status: 415 })).status).toBe(415);
  });
});
