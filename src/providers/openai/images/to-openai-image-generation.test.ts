import { describe, expect, it } from 'vitest';
import { toOpenAIImageGeneration } from './to-openai-image-generation.js';

describe('toOpenAIImageGeneration', () => {
  it('sends GPT image models no response_format, and passes the options under their wire names', () => {
    const body = toOpenAIImageGeneration(
      {
        model: 'textmodel-b-image-1',
        prompt: 'a cat',
        n: 2,
        size: { width: 1536, height: 1024 },
        responseFormat: 'url',
        seed: 7,
        options: {
          quality: 'high',
          outputFormat: 'webp',
          outputCompression: 80,
          background: 'transparent',
          moderation: 'low',
          user: 'u-1',
          inputFidelity: 'high',
          unknown: 'x',
        },
      },
      'gpt-image-1',
    );
    expect(body).toEqual({
      model: 'gpt-image-1',
      prompt: 'a cat',
      n: 2,
      size: '1536x1024',
      quality: 'high',
      output_format: 'webp',
      output_compression: 80,
      background: 'transparent',
      moderation: 'low',
      user: 'u-1',
    });
  });

  it('asks DALL·E models for base64, whatever the client wants (the gateway stores the bytes)', () => {
    expect(toOpenAIImageGeneration({ model: 'm', prompt: 'p', n: 1, responseFormat: 'url', options: { style: 'vivid' } }, 'dall-e-3')).toEqual({
      model: 'dall-e-3',
      prompt: 'p',
      n: 1,
      response_format: 'b64_json',
      style: 'vivid',
    });
  });

  it('maps an aspect ratio to the nearest GPT image size', () => {
    const sizeFor = (aspectRatio: string) => toOpenAIImageGeneration({ model: 'm', prompt: 'p', n: 1, responseFormat: 'url', aspectRatio }, 'gpt-image-1').size;
    expect(sizeFor('16:9')).toBe('1536x1024');
    expect(sizeFor('9:16')).toBe('1024x1536');
    expect(sizeFor('1:1')).toBe('1024x1024');
    expect(sizeFor('odd')).toBeUndefined();
  });
});
