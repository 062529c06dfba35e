import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../core/errors.js';
import { acceptedUpstreamId } from './map-mj-submit-answer.js';

function refusal(answer: unknown): GatewayError {
  try {
    acceptedUpstreamId(answer);
  } catch (error) {
    if (error instanceof GatewayError) return error;
    throw error;
  }
  throw new Error('expected the answer to be refused');
}

describe('acceptedUpstreamId', () => {
  it('accepts codes 1, 21 and 22 with the task id in result', () => {
    expect(acceptedUpstreamId({ code: 1, description: 'Submit success', result: '1712345678901001' })).toBe('1712345678901001');
    expect(acceptedUpstreamId({ code: 21, description: 'Task already exists', result: '17' })).toBe('17');
    expect(acceptedUpstreamId({ code: 22, description: 'In queue', result: 1712345678901002, properties: { numberOfQueues: 3 } })).toBe('1712345678901002');
  });

  it('maps each refusal code to its error', () => {
    expect(refusal({ code: 3, description: 'Related task does not exist' })).toMatchObject({
      kind: 'invalid_request',
      code: 'task_not_found',
      retryable: false,
      message: expect.stringContaining('task to act on was not found upstream'),
    });
    expect(refusal({ code: 4, description: 'prompt can not be empty' })).toMatchObject({
      kind: 'invalid_request',
      retryable: false,
      message: expect.stringContaining('prompt can not be empty'),
    });
    expect(refusal({ code: 9, description: 'boom' })).toMatchObject({ kind: 'upstream', retryable: false });
    expect(refusal({ code: 23, description: 'queue full' })).toMatchObject({ kind: 'overloaded', retryable: true });
    expect(refusal({ code: 24, description: 'May contain sensitive words', properties: { bannedWord: 'gore' } })).toMatchObject({
      kind: 'invalid_request',
      code: 'content_policy',
      message: expect.stringContaining('"gore"'),
    });
    expect(refusal({ code: 42, description: 'strange' })).toMatchObject({ kind: 'upstream', retryable: false, message: expect.stringContaining('code 42') });
    expect(refusal({ description: 'no code' })).toMatchObject({ kind: 'upstream', message: expect.stringContaining('code none') });
  });

  it('refuses an accepted answer without a usable id (not retryable: the task may run upstream)', () => {
    for (const answer of [
      { code: 1 },
      { code: 1, result: '' },
      { code: 1, result: '..' },
      { code: 1, result: '.' },
      { code: 1, result: 'a b' },
      { code: 1, result: 'x'.repeat(200) },
      null,
      [],
      'ok',
    ]) {
      expect(refusal(answer)).toMatchObject({ kind: 'upstream', retryable: false });
    }
  });

  it('keeps URLs of the proxy out of messages', () => {
    expect(refusal({ code: 9, description: 'cannot reach http://10.0.0.5:8080/mj' }).message).not.toContain('10.0.0.5');
  });
});
