import { describe, expect, it } from 'vitest';
import { renderImagegen2Response } from './render-images-response.js';

describe('renderImagegen2Response', () => {
  it('answers in Ideogram’s shape, created as an ISO date-time, size from the delivered bytes', () => {
    const body = renderImagegen2Response(
      {
        created: 1_746_100_830,
        images: [
          {
            mediaType: 'image/png',
            width: 1344,
            height: 768,
            url: 'http://gw.example/media/abc',
            revisedPrompt: 'a fox, detailed',
            resolution: '1344x768',
            isImageSafe: true,
            seed: 77,
            styleType: 'REALISTIC',
          },
        ],
      },
      { prompt: 'a fox' },
    );
    expect(body).toEqual({
      created: '2025-05-01T12:00:30.000Z',
      data: [{ url: 'http://gw.example/media/abc', prompt: 'a fox, detailed', resolution: '1344x768', is_image_safe: true, seed: 77, style_type: 'REALISTIC' }],
    });
  });

  it('carries b64_json instead of url, and echoes the request where the upstream said nothing', () => {
    const body = renderImagegen2Response(
      {
        created: 0,
        images: [
          { mediaType: 'image/png', width: 8, height: 4, b64Json: 'iVBORw0K' },
          { mediaType: 'image/png', width: 8, height: 4, b64Json: 'AAAA' },
        ],
      },
      { prompt: 'p', seed: 10, options: { style_type: 'DESIGN' } },
    );
    expect(body).toEqual({
      created: '1970-01-01T00:00:00.000Z',
      data: [
        { b64_json: 'iVBORw0K', prompt: 'p', resolution: '8x4', is_image_safe: true, seed: 10, style_type: 'DESIGN' },
        { b64_json: 'AAAA', prompt: 'p', resolution: '8x4', is_image_safe: true, seed: 11, style_type: 'DESIGN' },
      ],
    });
    expect(Object.keys(body.data[0])).not.toContain('url');
  });
});
