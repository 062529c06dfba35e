/**
 * Masks in Ideogram's convention: a black-and-white image the size of the edited image,
 * black where to edit. The canonical mask marks the area by transparency (or, for a mask
 * without transparency, by white), so it is redrawn here, pixel by pixel.
 */
import { loadSharp } from '../../media/load-sharp.js';
import { GatewayError } from '../../core/errors.js';
import type { ImageInput, ImageSize } from '../../core/image.js';

const EDIT = 0;
const KEEP = 255;

/** The canonical mask, scaled to `size`, as a black (edit) and white (keep) PNG. */
export async function toIdeogramMask(mask: ImageInput, size: ImageSize): Promise<ImageInput> {
  const { data } = await (await loadSharp())(mask.data)
    .resize(size.width, size.height, { fit: 'fill' })
    .ensureAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const pixels = size.width * size.height;
  let transparent = false;
  for (let i = 3; i < data.length; i += 4) {
    if (data[i] < 255) {
      transparent = true;
      break;
    }
  }
  const out = Buffer.alloc(pixels);
  let editable = 0;
  for (let p = 0; p < pixels; p++) {
    const o = p * 4;
    const edit = transparent ? data[o + 3] < 128 : luminance(data[o], data[o + 1], data[o + 2]) >= 128;
    out[p] = edit ? EDIT : KEEP;
    if (edit) editable++;
  }
  if (editable === 0) {
    throw new GatewayError('invalid_request', 'mask: the mask marks no area to edit (no transparent or white pixel)', { param: 'mask' });
  }
  return encode(out, size);
}

/** A mask that lets the whole image be edited (Ideogram's edit endpoint requires one). */
export async function wholeImageMask(size: ImageSize): Promise<ImageInput> {
  return encode(Buffer.alloc(size.width * size.height, EDIT), size);
}

async function encode(grey: Buffer, size: ImageSize): Promise<ImageInput> {
  const png = await (await loadSharp())(grey, { raw: { width: size.width, height: size.height, channels: 1 } })
    .toColourspace('b-w')
    .png()
    .toBuffer();
  return { data: new Uint8Array(png.buffer, png.byteOffset, png.byteLength), mediaType: 'image/png', filename: 'mask.png' };
}

function luminance(r: number, g: number, b: number): number {
  return 0.299 * r + 0.587 * g + 0.114 * b;
}
