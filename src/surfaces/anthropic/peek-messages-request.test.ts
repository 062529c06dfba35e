import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../core/errors.js';
import { peekAnthropicMessagesRequest } from './peek-messages-request.js';

function failure(body: unknown): GatewayError {
  try {
    peekAnthropicMessagesRequest(body);
  } catch (error) {
    if (error instanceof GatewayError) return error;
    throw error;
  }
  throw new Error('expected a GatewayError');
}

describe('peekAnthropicMessagesRequest', () => {
  it('accepts server tools and other native features it does not model', () => {
    const body = {
      model: 'claude-sonnet-4-5',
      max_tokens: 100,
      stream: true,
      tools: [{ type: 'web_search_20250305', name: 'web_search', max_uses: 3 }],
      container: 'container_1',
      messages: [{ role: 'user', content: [{ type: 'search_result', source: 'x', title: 't', content: [] }] }],
    };
    expect(peekAnthropicMessagesRequest(body)).toEqual({ model: 'claude-sonnet-4-5', stream: true, documents: [] });
  });

  it('measures base64 and text documents, tool results included', () => {
    const pdf = Buffer.alloc(1500, 1).toString('base64');
    const body = {
      model: 'm',
      messages: [
        {
          role: 'user',
          content: [
            { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: pdf } },
            { type: 'document', source: { type: 'url', url: 'https://example.com/a.pdf' } },
            { type: 'document', source: { type: 'text', media_type: 'text/plain', data: 'héllo' } },
          ],
        },
        { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'f', input: {} }] },
        {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: 't1', content: [{ type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: pdf } }] },
          ],
        },
      ],
    };
    expect(peekAnthropicMessagesRequest(body).documents).toEqual([
      { param: 'messages[0].content[0].source.data', bytes: 1500 },
      { param: 'messages[0].content[2].source.data', bytes: 6 },
      { param: 'messages[2].content[0].content[0].source.data', bytes: 1500 },
    ]);
  });

  it.each([
    ['a body that is not an object', 'text', 'body'],
    ['a missing model', { max_tokens: 1 }, 'model'],
    ['an overlong model', { model: 'x'.repeat(300) }, 'model'],
    ['a stream that is not a boolean', { model: 'm', stream: 1 }, 'stream'],
  ])('refuses %s as invalid_request naming the param', (_name, body, param) => {
    const error = failure(body);
    expect(error.kind).toBe('invalid_request');
    expect(error.param).toBe(param);
  });
});
