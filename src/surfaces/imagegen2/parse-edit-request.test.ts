import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { decodeImageString } from '../../core/image-bytes.js';
import type { ImageLoader } from './load-image-value.js';
import { parseEditRequest } from './parse-edit-request.js';

/** Decodes base64 as the real loader does; no URLs in these tests. */
const load: ImageLoader = async (value, param) => decodeImageString(value as string, param);

async function base64Png(width: number, height: number, rgb: (x: number) => number[]): Promise<string> {
  const raw = Buffer.alloc(width * height * 3);
  for (let p = 0; p < width * height; p++) raw.set(rgb(p % width), p * 3);
  return (
    await sharp(raw, { raw: { width, height, channels: 3 } })
      .png()
      .toBuffer()
  ).toString('base64');
}

describe('parseEditRequest', () => {
  it('reads image, prompt and an Ideogram mask, which becomes canonical (transparent = edit)', async () => {
    const image = await base64Png(6, 4, () => [0, 0, 255]);
    const mask = await base64Png(6, 4, (x) => (x < 3 ? [0, 0, 0] : [255, 255, 255]));
    const request = await parseEditRequest({ image: `data:image/png;base64,${image}`, prompt: 'add a moon', mask, seed: 5, style_type: 'DESIGN' }, load);
    expect(request).toMatchObject({ model: 'imagegen2-v3', prompt: 'add a moon', n: 1, seed: 5, responseFormat: 'url', options: { style_type: 'DESIGN' } });
    expect(request.images).toHaveLength(1);
    expect(request.images[0].mediaType).toBe('image/png');
    const { data, info } = await sharp(request.mask!.data).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
    expect([info.width, info.height]).toEqual([6, 4]);
    const firstRowAlpha = Array.from({ length: 6 }, (_, x) => data[x * 4 + 3]);
    expect(firstRowAlpha).toEqual([0, 0, 0, 255, 255, 255]);
  });

  it('has no mask when none is given, and ignores sizing fields (the result keeps the image’s size)', async () => {
    const image = await base64Png(2, 2, () => [1, 2, 3]);
    const request = await parseEditRequest({ image, prompt: 'p', aspect_ratio: '16:9', resolution: '1024x1024' }, load);
    expect(request.mask).toBeUndefined();
    expect(request.size).toBeUndefined();
    expect(request.aspectRatio).toBeUndefined();
  });

  it('refuses an empty mask, invalid base64 and a missing image or prompt, naming each', async () => {
    const image = await base64Png(2, 2, () => [1, 2, 3]);
    await expect(parseEditRequest({ image, prompt: 'p', mask: '' }, load)).rejects.toMatchObject({ status: 400, param: 'mask' });
    await expect(parseEditRequest({ image: 'not base64!', prompt: 'p' }, load)).rejects.toMatchObject({
      status: 400,
      param: 'image',
      message: 'image: invalid base64 data',
    });
    await expect(parseEditRequest({ image: 'aGVsbG8gd29ybGQ=', prompt: 'p' }, load)).rejects.toMatchObject({ status: 400, param: 'image' });
    await expect(parseEditRequest({ prompt: 'p' }, load)).rejects.toMatchObject({ param: 'image' });
    await expect(parseEditRequest({ image }, load)).rejects.toMatchObject({ param: 'prompt' });
  });
});
