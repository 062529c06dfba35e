import { describe, expect, it } from 'vitest';
import { GatewayError, type ErrorKind } from '../../core/errors.js';
import { renderGeminiError } from './render-error.js';

describe('renderGeminiError', () => {
  it.each<[ErrorKind, number, string]>([
    ['invalid_request', 400, 'INVALID_ARGUMENT'],
    ['authentication', 401, 'UNAUTHENTICATED'],
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
