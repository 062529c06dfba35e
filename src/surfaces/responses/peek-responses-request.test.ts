import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../core/errors.js';
import { peekResponsesRequest } from './peek-responses-request.js';

function failure(body: unknown): GatewayError {
  try {
    peekResponsesRequest(body);
  } catch (error) {
    if (error instanceof GatewayError) return error;
    throw error;
  }
  throw new Error('expected a GatewayError');
}

describe('peekResponsesRequest', () => {
  it("reads model, stream, store, background and previous_response_id, with OpenAI's defaults", () => {
    expect(peekResponsesRequest({ model: 'gpt-5', input: 'hi' })).toEqual({ model: 'gpt-5', stream: false, store: true, background: false });
    expect(peekResponsesRequest({ model: 'gpt-5', input: 'hi', stream: true, store: false, background: true, previous_response_id: 'resp_abc' })).toEqual({
      model: 'gpt-5',
      stream: true,
      store: false,
      background: true,
      previousResponseId: 'resp_abc',
    });
    expect(peekResponsesRequest({ model: 'gpt-5', store: null, background: null, previous_response_id: null })).toEqual({
      model: 'gpt-5',
      stream: false,
      store: true,
      background: false,
    });
  });

  it('refuses a body that is not an object', () => {
    const error = failure([1, 2]);
    expect(error.kind).toBe('invalid_request');
    expect(error.param).toBe('body');
  });

  it('names the parameter of each bad field', () => {
    expect(failure({ input: 'hi' }).param).toBe('model');
    expect(failure({ model: '' }).param).toBe('model');
    expect(failure({ model: 'm', stream: 'yes' }).param).toBe('stream');
    expect(failure({ model: 'm', store: 1 }).param).toBe('store');
    expect(failure({ model: 'm', background: 'true' }).param).toBe('background');
    expect(failure({ model: 'm', previous_response_id: 42 }).param).toBe('previous_response_id');
    expect(failure({ model: 'm', previous_response_id: '' }).param).toBe('previous_response_id');
    expect(failure({ model: 'm', previous_response_id: 'r'.repeat(257) }).param).toBe('previous_response_id');
    expect(failure({ model: 'm', previous_response_id: 'resp_\u0000' }).param).toBe('previous_response_id');
    for (const body of [{ input: 'hi' }, { model: 'm', store: 1 }]) expect(failure(body).status).toBe(400);
  });
});
