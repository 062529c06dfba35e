import { describe, expect, it } from 'vitest';
import { upstreamTaskErrorType } from './task-failure-type.js';

describe('the error type of a task failure an upstream reported', () => {
  it('is a refusal for a content policy or an upstream cancel, a timeout when it gave up, else its own failure', () => {
    expect(upstreamTaskErrorType('failed', { code: 'content_policy', message: 'refused' })).toBe('upstream.refused');
    expect(upstreamTaskErrorType('failed', { code: 'content_policy_violation', message: 'refused' })).toBe('upstream.refused');
    expect(upstreamTaskErrorType('canceled', { code: 'upstream_canceled', message: 'canceled upstream' })).toBe('upstream.refused');
    expect(upstreamTaskErrorType('canceled', undefined)).toBe('upstream.refused');
    expect(upstreamTaskErrorType('failed', { code: 'timeout', message: 'gave up' })).toBe('upstream.timeout');
    expect(upstreamTaskErrorType('failed', { code: 'upstream_failed', message: 'x' })).toBe('upstream.server_error');
    expect(upstreamTaskErrorType('failed', { code: 'upstream_lost', message: 'x' })).toBe('upstream.server_error');
    expect(upstreamTaskErrorType('failed', undefined)).toBe('upstream.server_error');
  });
});
