import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import type { ImageInput } from '../../core/image.js';
import { toCanonicalMask } from './to-canonical-mask.js';

async function png(width: number, height: number, channels: 3 | 4, pick: (x: number, y: number) => number[]): Promise<ImageInput> {
  const raw = Buffer.alloc(width * height * channels);
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) raw.set(pick(x, y), (y * width + x) * channels);
  return { data: new Uint8Array(await sharp(raw, { raw: { width, height, channels } }).png().toBuffer()), mediaType: 'image/png' };
}

/** The alpha value of each pixel, row by row. */
async function alphaRows(mask: ImageInput): Promise<number[][]> {
  const { data, info } = await sharp(mask.data).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  return Array.from({ length: info.height }, (_, y) => Array.from({ length: info.width }, (_, x) => data[(y * info.width + x) * 4 + 3]));
}

describe('toCanonicalMask', () => {
  it('turns Ideogram’s black (edit) area transparent and keeps the white area opaque, at the same size', async () => {
    const ideogramMask = await png(4, 2, 3, (x) => (x < 1 ? [0, 0, 0] : [255, 255, 255]));
    const canonical = await toCanonicalMask(ideogramMask);
    expect(canonical.mediaType).toBe('image/png');
    const { width, height, hasAlpha } = await sharp(canonical.data).metadata();
    expect({ width, height, hasAlpha }).toEqual({ width: 4, height: 2, hasAlpha: true });
    expect(await alphaRows(canonical)).toEqual([
      [0, 255, 255, 255],
      [0, 255, 255, 255],
    ]);
  });

  it('keeps a mask that already marks its area by transparency as it is', async () => {
    const transparentMask = await png(2, 2, 4, (x) => (x === 0 ? [0, 0, 0, 0] : [0, 0, 0, 255]));
    expect(await toCanonicalMask(transparentMask)).toBe(transparentMask);
  });

  it('refuses an all-white mask (nothing to edit), naming the mask', async () => {
    const white = await png(3, 3, 3, () => [255, 255, 255]);
    await expect(toCanonicalMask(white)).rejects.toMatchObject({ kind: 'invalid_request', status: 400, param: 'mask' });
  });

  it('refuses bytes that look like an image but do not decode', async () => {
    const broken: ImageInput = { data: new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]), mediaType: 'image/png' };
    await expect(toCanonicalMask(broken)).rejects.toMatchObject({ status: 400, param: 'mask', message: 'mask: the mask could not be decoded as an image' });
  });
});
