import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../core/errors.js';
import { peekOpenAIChatRequest } from './peek-chat-request.js';

function failure(body: unknown): GatewayError {
  try {
    peekOpenAIChatRequest(body);
  } catch (error) {
    if (error instanceof GatewayError) return error;
    throw error;
  }
  throw new Error('expected a GatewayError');
}

describe('peekOpenAIChatRequest', () => {
  it('reads model and stream and leaves native parameters alone', () => {
    const body = { model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }], n: 2, logprobs: true, modalities: ['text'], stream: false };
    expect(peekOpenAIChatRequest(body)).toEqual({ model: 'gpt-4o', stream: false, documents: [] });
  });

  it('reports include_usage only for a stream', () => {
    const options = { stream_options: { include_usage: true } };
    expect(peekOpenAIChatRequest({ model: 'm', stream: true, ...options }).includeUsage).toBe(true);
    expect(peekOpenAIChatRequest({ model: 'm', ...options }).includeUsage).toBeUndefined();
    expect(peekOpenAIChatRequest({ model: 'm', stream: true }).includeUsage).toBeUndefined();
  });

  it('measures inline files: data URLs and bare base64, decoded', () => {
    const pdf = Buffer.alloc(3000, 7).toString('base64');
    const body = {
      model: 'm',
      messages: [
        { role: 'system', content: 'be brief' },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'read' },
            { type: 'file', file: { filename: 'a.pdf', file_data: `data:application/pdf;base64,${pdf}` } },
            { type: 'file', file: { filename: 'b.pdf', file_data: pdf.slice(0, 400) } },
            { type: 'file', file: { file_id: 'file-abc' } },
          ],
        },
      ],
    };
    expect(peekOpenAIChatRequest(body).documents).toEqual([
      { param: 'messages[1].content[1].file.file_data', bytes: 3000 },
      { param: 'messages[1].content[2].file.file_data', bytes: 300 },
    ]);
  });

  it.each([
    ['a body that is not an object', [1, 2], 'body'],
    ['a missing model', { messages: [] }, 'model'],
    ['a model that is not a string', { model: 4 }, 'model'],
    ['an empty model', { model: '' }, 'model'],
    ['an overlong model', { model: 'm'.repeat(257) }, 'model'],
    ['a stream that is not a boolean', { model: 'm', stream: 'yes' }, 'stream'],
  ])('refuses %s as invalid_request naming the param', (_name, body, param) => {
    const error = failure(body);
    expect(error.kind).toBe('invalid_request');
    expect(error.param).toBe(param);
  });

  it('tolerates shapes it does not need (the upstream judges them)', () => {
    expect(peekOpenAIChatRequest({ model: 'm', messages: 'not a list' }).documents).toEqual([]);
    expect(peekOpenAIChatRequest({ model: 'm', messages: [null, { content: [null, { type: 'file', file: 3 }] }] }).documents).toEqual([]);
  });
});
