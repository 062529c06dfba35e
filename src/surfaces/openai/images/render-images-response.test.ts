import { describe, expect, it } from 'vitest';
import { renderOpenAIImagesResponse } from './render-images-response.js';

describe('renderOpenAIImagesResponse', () => {
  it('renders url or b64_json per image, with revised_prompt only when there is one', () => {
    expect(
      renderOpenAIImagesResponse({
        created: 1_700_000_123,
        images: [
          { mediaType: 'image/png', url: 'http://gw/media/abc', width: 64, height: 64, revisedPrompt: 'a cat, detailed' },
          { mediaType: 'image/png', b64Json: 'iVBORw0KGgo=', seed: 4 },
        ],
      }),
    ).toEqual({
      created: 1_700_000_123,
      data: [{ url: 'http://gw/media/abc', revised_prompt: 'a cat, detailed' }, { b64_json: 'iVBORw0KGgo=' }],
    });
  });
});
