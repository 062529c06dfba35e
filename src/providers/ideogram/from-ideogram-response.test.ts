import { describe, expect, it } from 'vitest';
import { fromIdeogramResponse } from './from-ideogram-response.js';

describe('fromIdeogramResponse', () => {
  it('keeps url, prompt, resolution, safety, seed and style of each image; created becomes unix seconds', () => {
    const result = fromIdeogramResponse({
      created: '2025-05-01T12:00:30.500000+00:00',
      data: [
        {
          url: 'https://ideogram.ai/api/images/ephemeral/a.png',
          prompt: 'A red fox, watercolor',
          resolution: '1344x768',
          is_image_safe: true,
          seed: 12345,
          style_type: 'GENERAL',
        },
        { url: 'https://ideogram.ai/api/images/ephemeral/b.png', prompt: 'A red fox', resolution: '1024x1024', is_image_safe: true, seed: 7 },
      ],
    });
    expect(result).toEqual({
      created: 1_746_100_830,
      images: [
        {
          url: 'https://ideogram.ai/api/images/ephemeral/a.png',
          revisedPrompt: 'A red fox, watercolor',
          seed: 12345,
          resolution: '1344x768',
          isImageSafe: true,
          styleType: 'GENERAL',
        },
        {
          url: 'https://ideogram.ai/api/images/ephemeral/b.png',
          revisedPrompt: 'A red fox',
          seed: 7,
          resolution: '1024x1024',
          isImageSafe: true,
          styleType: undefined,
        },
      ],
    });
  });

  it('drops images that failed the safety check (their url is null)', () => {
    const result = fromIdeogramResponse({
      created: '2025-05-01T12:00:00Z',
      data: [
        { url: null, prompt: 'p', resolution: '1024x1024', is_image_safe: false, seed: 1 },
        { url: 'https://x/1.png', prompt: 'p', resolution: '1024x1024', is_image_safe: true, seed: 2 },
      ],
    });
    expect(result.images.map((i) => i.seed)).toEqual([2]);
  });

  it('refuses an answer whose every image failed the safety check as a content policy violation', () => {
    expect(() =>
      fromIdeogramResponse({ created: '2025-05-01T12:00:00Z', data: [{ url: null, prompt: 'p', resolution: '1024x1024', is_image_safe: false, seed: 1 }] }),
    ).toThrow(expect.objectContaining({ kind: 'invalid_request', code: 'content_policy_violation' }));
  });

  it('treats an answer without images as an upstream fault', () => {
    expect(() => fromIdeogramResponse({ created: '2025-05-01T12:00:00Z', data: [] })).toThrow(expect.objectContaining({ kind: 'upstream', retryable: true }));
  });
});
