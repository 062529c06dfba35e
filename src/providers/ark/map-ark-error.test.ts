import { describe, expect, it } from 'vitest';
import { mapArkHttpError } from './map-ark-error.js';

const body = (code: string, message: string) => JSON.stringify({ error: { code, message, param: '', type: 'BadRequest' } });

describe('mapArkHttpError', () => {
  it('400 InvalidParameter is the client’s, not retried', () => {
    const error = mapArkHttpError(400, body('InvalidParameter', 'The parameter `content` specified in the request is not valid. Request id: 02'), {}, []);
    expect(error).toMatchObject({ kind: 'invalid_request', retryable: false, upstreamStatus: 400, code: 'InvalidParameter' });
    expect(error.message).toContain('The parameter `content` specified in the request is not valid');
  });

  it.each([
    'InputTextSensitiveContentDetected',
    'InputImageSensitiveContentDetected.PrivacyInformation',
    'SensitiveContentDetected.Violence',
    'InputTextRiskDetection',
  ])('%s is a content-policy refusal', (code) => {
    expect(mapArkHttpError(400, body(code, 'may contain sensitive information'), {}, [])).toMatchObject({
      kind: 'invalid_request',
      code: 'content_policy',
      retryable: false,
    });
  });

  it('401 and 403 are the channel’s credentials: retryable on another channel', () => {
    expect(mapArkHttpError(401, body('AuthenticationError', 'The API key in the request is missing or invalid'), {}, [])).toMatchObject({
      kind: 'upstream',
      retryable: true,
    });
    expect(mapArkHttpError(403, body('AccountOverdueError', 'overdue balance'), {}, [])).toMatchObject({ kind: 'upstream', retryable: true });
  });

  it('429 is a rate limit carrying Retry-After', () => {
    expect(mapArkHttpError(429, body('RateLimitExceeded.EndpointRPMExceeded', 'slow down'), { 'retry-after': '7' }, [])).toMatchObject({
      kind: 'rate_limit',
      retryable: true,
      retryAfter: 7,
    });
  });

  it('5xx and a model this channel lacks are retryable elsewhere', () => {
    expect(mapArkHttpError(500, body('InternalServiceError', 'boom'), {}, [])).toMatchObject({ retryable: true });
    expect(mapArkHttpError(404, body('InvalidEndpointOrModel.NotFound', 'no such model'), {}, [])).toMatchObject({ kind: 'upstream', retryable: true });
    expect(mapArkHttpError(400, body('InvalidEndpoint.ClosedEndpoint', 'closed'), {}, [])).toMatchObject({ kind: 'upstream', retryable: true });
  });

  it('never repeats a host or the key, whatever the body says', () => {
    const error = mapArkHttpError(400, body('InvalidParameter', 'bad image https://ark.cn-beijing.volces.com/x for key sk-live-123'), {}, ['sk-live-123']);
    expect(error.message).not.toContain('volces.com');
    expect(error.message).not.toContain('sk-live-123');
    const page = mapArkHttpError(502, '<html>bad gateway at ark.internal</html>', {}, []);
    expect(page.message).toContain('HTTP 502');
    expect(page.message).not.toContain('ark.internal');
  });
});
