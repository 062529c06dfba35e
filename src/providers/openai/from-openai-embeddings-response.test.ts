import { beforeAll, describe, expect, it } from 'vitest';
import { GatewayError } from '../../core/errors.js';
import type { OpenAIEmbeddingsResponse } from '../../core/wire/openai-embeddings-types.js';
import { fromOpenAIEmbeddingsResponse } from './from-openai-embeddings-response.js';
import { loadTokenizer } from '../../core/tokenizer.js';

beforeAll(() => loadTokenizer());

const request = { model: 'public-id', inputs: ['hello world', 'b'] };

describe('fromOpenAIEmbeddingsResponse', () => {
  it('orders vectors by index and keeps the reported usage', () => {
    const answer: OpenAIEmbeddingsResponse = {
      object: 'list',
      data: [
        { object: 'embedding', index: 1, embedding: [0.2] },
        { object: 'embedding', index: 0, embedding: [0.1] },
      ],
      model: 'upstream-model',
      usage: { prompt_tokens: 7, total_tokens: 7 },
    };
    expect(fromOpenAIEmbeddingsResponse(answer, request)).toEqual({ model: 'public-id', embeddings: [[0.1], [0.2]], usage: { inputTokens: 7 } });
  });

  it('decodes base64 vectors and estimates usage a server did not report', () => {
    // [0.5, -2] as little-endian float32: 00 00 00 3f, 00 00 00 c0.
    const base64 = Buffer.from([0, 0, 0, 0x3f, 0, 0, 0, 0xc0]).toString('base64');
    const answer = {
      object: 'list',
      data: [
        { object: 'embedding', index: 0, embedding: base64 },
        { object: 'embedding', index: 1, embedding: [1] },
      ],
      model: 'm',
    };
    // o200k_base: "hello", " world", "b".
    expect(fromOpenAIEmbeddingsResponse(answer as unknown as OpenAIEmbeddingsResponse, request)).toEqual({
      model: 'public-id',
      embeddings: [[0.5, -2], [1]],
      usage: { inputTokens: 3 },
    });
  });

  it('refuses answers that do not fit the request', () => {
    const short = { object: 'list', data: [{ object: 'embedding', index: 0, embedding: [1] }], model: 'm', usage: { prompt_tokens: 1, total_tokens: 1 } };
    expect(() => fromOpenAIEmbeddingsResponse(short as OpenAIEmbeddingsResponse, request)).toThrow(GatewayError);
    const twice = { ...short, data: [short.data[0], short.data[0]] };
    expect(() => fromOpenAIEmbeddingsResponse(twice as OpenAIEmbeddingsResponse, request)).toThrow(/bad index 0/);
    const garbage = { ...short, data: [short.data[0], { object: 'embedding', index: 1, embedding: { nope: true } }] };
    expect(() => fromOpenAIEmbeddingsResponse(garbage as unknown as OpenAIEmbeddingsResponse, request)).toThrow(/neither a float array/);
  });
});
