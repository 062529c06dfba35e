import { describe, expect, it } from 'vitest';
import { pngHeader } from '../../test/helpers/image-headers.js';
import { GatewayError } from './errors.js';
import { toImageInput } from './image-bytes.js';
import { ImagePixelBudget } from './image-pixel-budget.js';

describe('ImagePixelBudget', () => {
  it('finding 3: admits images up to the request total and refuses the one that goes over, naming it', () => {
    const budget = ImagePixelBudget.forImageCap(1_000_000);
    expect(budget.limit).toBe(4_000_000);
    const image = toImageInput(pngHeader(1000, 1000), 'image[0]', { maxPixels: 1_000_000 });
    for (let i = 0; i < 4; i++) expect(budget.take(image, `image[${i}]`)).toBe(image);
    let refused: unknown;
    try {
      budget.take(toImageInput(pngHeader(1, 1), 'image[4]'), 'image[4]');
    } catch (error) {
      refused = error;
    }
    expect(refused).toBeInstanceOf(GatewayError);
    expect(refused).toMatchObject({ status: 400, param: 'image[4]' });
    expect((refused as Error).message).toBe(
      "image[4]: the request's images add up to more than 4 megapixels, the limit for one request; send fewer or smaller images",
    );
  });

  it('will not count an image whose size was never read', () => {
    expect(() => ImagePixelBudget.forImageCap(10).take({ data: new Uint8Array(1), mediaType: 'image/png' }, 'image')).toThrow(/must be checked/);
  });
});
