import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../../core/errors.js';
import { parseOpenAIGenerationRequest } from './parse-generation-request.js';
import { parseImageSize } from './parse-image-size.js';

function rejection(body: unknown): GatewayError {
  try {
    parseOpenAIGenerationRequest(body);
  } catch (error) {
    if (error instanceof GatewayError) return error;
    throw error;
  }
  throw new Error('expected a rejection');
}

describe('parseOpenAIGenerationRequest', () => {
  it('fills the defaults: one image, a URL, the size left to the model', () => {
    expect(parseOpenAIGenerationRequest({ model: 'imagegen1-dev', prompt: 'a fox' })).toEqual({
      model: 'imagegen1-dev',
      prompt: 'a fox',
      n: 1,
      responseFormat: 'url',
    });
  });

  it('reads every field, extras into options', () => {
    expect(
      parseOpenAIGenerationRequest({
        model: 'textmodel-b-image-1',
        prompt: 'a fox',
        n: 3,
        size: '1024x768',
        response_format: 'b64_json',
        quality: 'high',
        style: 'vivid',
        output_format: 'webp',
        output_compression: 50,
        background: 'transparent',
        moderation: 'low',
        input_fidelity: 'high',
        seed: 12,
        user: 'user-9',
        unknown_field: true,
      }),
    ).toEqual({
      model: 'textmodel-b-image-1',
      prompt: 'a fox',
      n: 3,
      size: { width: 1024, height: 768 },
      responseFormat: 'b64_json',
      seed: 12,
      options: { quality: 'high', style: 'vivid', outputFormat: 'webp', outputCompression: 50, background: 'transparent', moderation: 'low', user: 'user-9' },
    });
  });

  it('takes size auto as no size', () => {
    expect(parseOpenAIGenerationRequest({ model: 'm', prompt: 'p', size: 'auto' }).size).toBeUndefined();
  });

  it.each([
    ['no model', { prompt: 'p' }, 'model', 'model: is required'],
    ['no prompt', { model: 'm' }, 'prompt', 'prompt: is required'],
    ['a blank prompt', { model: 'm', prompt: '  ' }, 'prompt', 'prompt: must not be empty'],
    ['n of 0', { model: 'm', prompt: 'p', n: 0 }, 'n', 'n: must be ≥ 1, got 0'],
    ['n of 11', { model: 'm', prompt: 'p', n: 11 }, 'n', 'n: must be ≤ 10, got 11'],
    ['a fractional n', { model: 'm', prompt: 'p', n: 1.5 }, 'n', 'n: expected an integer, got 1.5'],
    ['a size that is not WxH', { model: 'm', prompt: 'p', size: 'large' }, 'size', 'size: expected WIDTHxHEIGHT like "1024x1024", or "auto", got "large"'],
    ['a side under 64', { model: 'm', prompt: 'p', size: '32x1024' }, 'size', 'size: each side must be between 64 and 4096 pixels, got "32x1024"'],
    ['a side over 4096', { model: 'm', prompt: 'p', size: '1024x5000' }, 'size', 'size: each side must be between 64 and 4096 pixels, got "1024x5000"'],
    [
      'an unknown response_format',
      { model: 'm', prompt: 'p', response_format: 'png' },
      'response_format',
      'response_format: must be one of "url", "b64_json", got "png"',
    ],
    ['streaming', { model: 'm', prompt: 'p', stream: true }, 'stream', 'stream: streamed image responses are not supported; omit stream'],
    [
      'an output_compression over 100',
      { model: 'm', prompt: 'p', output_compression: 101 },
      'output_compression',
      'output_compression: must be ≤ 100, got 101',
    ],
    ['a numeric quality', { model: 'm', prompt: 'p', quality: 3 }, 'quality', 'quality: expected a string, got a number'],
  ])('rejects %s naming the param', (_label, body, param, message) => {
    const error = rejection(body);
    expect([error.status, error.param, error.message]).toEqual([400, param, message]);
  });
});

describe('parseImageSize', () => {
  it('reads the spec sizes and the extremes', () => {
    expect(parseImageSize('1024x1024', 'size')).toEqual({ width: 1024, height: 1024 });
    expect(parseImageSize('768x1024', 'size')).toEqual({ width: 768, height: 1024 });
    expect(parseImageSize('64x4096', 'size')).toEqual({ width: 64, height: 4096 });
    expect(parseImageSize(undefined, 'size')).toBeUndefined();
  });
});
