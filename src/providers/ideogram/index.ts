import type { Provider } from '../types.js';
import { createIdeogramImages } from './ideogram-images.js';

/** The Ideogram API upstream (`https://api.ideogram.ai` by default): image operations only. */
export function createIdeogramProvider(): Provider {
  return {
    name: 'ideogram',
    operations: new Set(['image.remix', 'image.edit', 'image.blend', 'image.generate']),
    images: createIdeogramImages(),
  };
}
