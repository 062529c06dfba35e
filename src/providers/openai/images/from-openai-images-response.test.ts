import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../../core/errors.js';
import { fromOpenAIImagesResponse } from './from-openai-images-response.js';

const PNG_BYTES = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);
const WEBP_BYTES = Buffer.from('RIFF\x10\x00\x00\x00WEBPVP8 ', 'latin1');

describe('fromOpenAIImagesResponse', () => {
  it('decodes b64_json, labels it by its bytes, and keeps revised prompts', () => {
    const result = fromOpenAIImagesResponse({
      created: 1_713_833_628,
      data: [{ b64_json: PNG_BYTES.toString('base64'), revised_prompt: 'A fluffy cat' }, { b64_json: WEBP_BYTES.toString('base64') }],
      output_format: 'png',
      usage: { total_tokens: 10, input_tokens: 4, output_tokens: 6 },
    });
    expect(result.created).toBe(1_713_833_628);
    expect(result.images).toHaveLength(2);
    expect(Buffer.from(result.images[0].data!).equals(PNG_BYTES)).toBe(true);
    expect(result.images[0]).toMatchObject({ mediaType: 'image/png', revisedPrompt: 'A fluffy cat' });
    expect(result.images[1].mediaType).toBe('image/webp');
    expect(result.images[1].revisedPrompt).toBeUndefined();
  });

  it('passes URLs on for the gateway to fetch', () => {
    expect(fromOpenAIImagesResponse({ created: 1, data: [{ url: 'https://files.example/img.png' }] }).images).toEqual([
      { url: 'https://files.example/img.png' },
    ]);
  });

  it('treats an answer without images as an upstream failure', () => {
    for (const broken of [
      { created: 1, data: [] },
      { created: 1, data: [{}] },
    ]) {
      const error = (() => {
        try {
          fromOpenAIImagesResponse(broken);
        } catch (e) {
          return e;
        }
      })();
      expect(error).toBeInstanceOf(GatewayError);
      expect((error as GatewayError).kind).toBe('upstream');
    }
  });
});
