import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../core/errors.js';
import { submitFailure } from './uncertain-submit.js';

const networkError = (kind: 'upstream' | 'timeout', code: string) =>
  new GatewayError(kind, 'upstream unreachable', { retryable: true, cause: Object.assign(new Error(code), { code }) });

describe('submitFailure', () => {
  it('keeps failures from before the request was sent retryable', () => {
    for (const code of ['ECONNREFUSED', 'ENOTFOUND', 'UND_ERR_CONNECT_TIMEOUT']) {
      const error = networkError('upstream', code);
      expect(submitFailure(error)).toBe(error);
    }
  });

  it('keeps upstream answers (429, 5xx) as they are', () => {
    const throttled = new GatewayError('rate_limit', 'throttled', { retryable: true, upstreamStatus: 429, retryAfter: 2 });
    expect(submitFailure(throttled)).toBe(throttled);
  });

  it('makes a lost answer non-retryable: the task may exist upstream', () => {
    for (const error of [networkError('timeout', 'UND_ERR_HEADERS_TIMEOUT'), networkError('upstream', 'UND_ERR_SOCKET')]) {
      expect(submitFailure(error, 'prediction')).toMatchObject({
        kind: error.kind,
        retryable: false,
        code: 'submit_uncertain',
        message: 'upstream unreachable (the prediction may have been created upstream)',
      });
    }
  });

  it('leaves non-retryable errors alone', () => {
    const aborted = new GatewayError('upstream', 'request aborted by the client', { retryable: false, code: 'client_closed' });
    expect(submitFailure(aborted)).toBe(aborted);
  });
});
