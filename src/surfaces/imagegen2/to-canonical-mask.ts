/**
 * An imagegen2 mask in the gateway's canonical convention. Ideogram clients paint the area to
 * edit black on white; the canonical mask marks it transparent. A mask that already has
 * transparent pixels is read the canonical way and kept as it is.
 */
import type { OutputInfo } from 'sharp';
import { openImage, withDecodeSlot } from '../../media/image-decoding.js';
import { loadSharp } from '../../media/load-sharp.js';
import { invalidRequest } from '../../core/errors.js';
import type { ImageInput } from '../../core/image.js';

export async function toCanonicalMask(mask: ImageInput, param = 'mask'): Promise<ImageInput> {
  let decoded: { data: Buffer; info: OutputInfo };
  try {
    decoded = await withDecodeSlot(async () => (await openImage(mask.data)).ensureAlpha().raw().toBuffer({ resolveWithObject: true }));
  } catch {
    throw invalidRequest(`${param}: the mask could not be decoded as an image`, param);
  }
  const { data, info } = decoded;
  const pixels = info.width * info.height;
  let transparent = 0;
  let black = 0;
  for (let p = 0; p < pixels; p++) {
    const o = p * 4;
    if (data[o + 3] < 128) transparent++;
    else if (0.299 * data[o] + 0.587 * data[o + 1] + 0.114 * data[o + 2] < 128) black++;
  }
  if (transparent > 0) return mask;
  if (black === 0) throw invalidRequest(`${param}: the mask marks no area to edit; paint the area to edit black (or transparent)`, param);

  const out = Buffer.alloc(pixels * 4, 255);
  for (let p = 0; p < pixels; p++) {
    const o = p * 4;
    if (0.299 * data[o] + 0.587 * data[o + 1] + 0.114 * data[o + 2] < 128) out[o + 3] = 0;
  }
  const png = await (await loadSharp())(out, { raw: { width: info.width, height: info.height, channels: 4 } })
    .png()
    .toBuffer();
  return {
    data: new Uint8Array(png.buffer, png.byteOffset, png.byteLength),
    mediaType: 'image/png',
    filename: 'mask.png',
    width: info.width,
    height: info.height,
  };
}
