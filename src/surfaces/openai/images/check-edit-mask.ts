/**
 * An edit mask must mark something: transparent pixels are where the model edits, so a mask
 * must be a PNG with an alpha channel that is not entirely opaque (OpenAI's rule).
 */
import { openImage, withDecodeSlot } from '../../../media/image-decoding.js';
import { invalidRequest } from '../../../core/errors.js';
import type { ImageInput } from '../../../core/image.js';

export async function checkEditMask(mask: ImageInput, param = 'mask'): Promise<void> {
  if (mask.mediaType !== 'image/png') throw invalidRequest(`${param}: the mask must be a PNG image whose transparent pixels mark the area to edit`, param);
  const stats = await withDecodeSlot(async () => (await openImage(mask.data)).stats()).catch((error: unknown) => {
    throw invalidRequest(`${param}: the mask could not be decoded (${error instanceof Error ? error.message : String(error)})`, param);
  });
  if (stats.isOpaque) {
    throw invalidRequest(`${param}: the mask is entirely opaque, so it marks nothing to edit; make the area to edit transparent`, param);
  }
}
