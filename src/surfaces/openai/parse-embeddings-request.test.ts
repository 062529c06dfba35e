import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../core/errors.js';
import { parseOpenAIEmbeddingsRequest } from './parse-embeddings-request.js';

function rejection(body: unknown): { param?: string; message: string; status: number } {
  try {
    parseOpenAIEmbeddingsRequest(body);
  } catch (error) {
    if (error instanceof GatewayError) return { param: error.param, message: error.message, status: error.status };
    throw error;
  }
  throw new Error('expected a rejection');
}

describe('parseOpenAIEmbeddingsRequest', () => {
  it('takes one string, float encoding by default', () => {
    expect(parseOpenAIEmbeddingsRequest({ model: 'text-embedding-3-small', input: 'hello' })).toEqual({
      fields: { model: 'text-embedding-3-small' },
      inputs: ['hello'],
      encodingFormat: 'float',
    });
  });

  it('takes strings, base64, dimensions and user', () => {
    const parsed = parseOpenAIEmbeddingsRequest({
      model: 'text-embedding-3-large',
      input: ['a', 'b c'],
      encoding_format: 'base64',
      dimensions: 256,
      user: 'user-7',
    });
    expect(parsed).toEqual({
      fields: { model: 'text-embedding-3-large', dimensions: 256, user: 'user-7' },
      inputs: ['a', 'b c'],
      encodingFormat: 'base64',
    });
  });

  it('keeps a flat token array as one input and nested ones as several', () => {
    expect(parseOpenAIEmbeddingsRequest({ model: 'm', input: [15339, 1917] }).inputs).toEqual([[15339, 1917]]);
    expect(parseOpenAIEmbeddingsRequest({ model: 'm', input: [[15339], 'text', [1917]] }).inputs).toEqual([[15339], 'text', [1917]]);
  });

  it('accepts exactly 2048 inputs and refuses 2049', () => {
    expect(parseOpenAIEmbeddingsRequest({ model: 'm', input: Array.from({ length: 2048 }, (_, i) => `t${i}`) }).inputs).toHaveLength(2048);
    expect(rejection({ model: 'm', input: Array.from({ length: 2049 }, (_, i) => `t${i}`) })).toEqual({
      param: 'input',
      message: 'input: at most 2048 inputs are allowed, got 2049',
      status: 400,
    });
  });

  it('refuses empty strings and empty arrays, naming the input', () => {
    expect(rejection({ model: 'm', input: '' })).toEqual({ param: 'input', message: 'input: must not be an empty string', status: 400 });
    expect(rejection({ model: 'm', input: ['ok', ''] })).toEqual({ param: 'input[1]', message: 'input[1]: must not be an empty string', status: 400 });
    expect(rejection({ model: 'm', input: [] })).toEqual({ param: 'input', message: 'input: must not be an empty array', status: 400 });
    expect(rejection({ model: 'm', input: ['ok', []] })).toEqual({ param: 'input[1]', message: 'input[1]: must not be an empty array', status: 400 });
  });

  it('refuses wrong types', () => {
    expect(rejection({ model: 'm' })).toMatchObject({ param: 'input', status: 400 });
    expect(rejection({ model: 'm', input: 42 })).toEqual({ param: 'input', message: 'input: expected a string or an array, got a number', status: 400 });
    expect(rejection({ model: 'm', input: ['ok', { text: 'x' }] })).toEqual({
      param: 'input[1]',
      message: 'input[1]: expected a string or an array of token ids, got an object',
      status: 400,
    });
    expect(rejection({ model: 'm', input: [1, 2.5] })).toMatchObject({ param: 'input[1]', status: 400 });
    expect(rejection({ model: 'm', input: [[1, -3]] })).toMatchObject({ param: 'input[0][1]', status: 400 });
    expect(rejection({ input: 'x' })).toEqual({ param: 'model', message: 'model: is required', status: 400 });
    expect(rejection({ model: 'm', input: 'x', encoding_format: 'int8' })).toMatchObject({ param: 'encoding_format', status: 400 });
    expect(rejection({ model: 'm', input: 'x', dimensions: 0 })).toMatchObject({ param: 'dimensions', status: 400 });
    expect(rejection({ model: 'm', input: 'x', dimensions: 1.5 })).toMatchObject({ param: 'dimensions', status: 400 });
    expect(rejection({ model: 'm', input: 'x', user: 7 })).toMatchObject({ param: 'user', status: 400 });
    expect(rejection(['x'])).toMatchObject({ param: 'body', status: 400 });
  });
});
