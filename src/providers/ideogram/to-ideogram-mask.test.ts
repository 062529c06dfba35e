import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../core/errors.js';
import type { ImageInput } from '../../core/image.js';
import { toIdeogramMask, wholeImageMask } from './to-ideogram-mask.js';

/** A PNG of `width`×`height` whose pixel (x, y) is `pick(x, y)` as RGBA. */
async function png(width: number, height: number, channels: 3 | 4, pick: (x: number, y: number) => number[]): Promise<ImageInput> {
  const raw = Buffer.alloc(width * height * channels);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) raw.set(pick(x, y).slice(0, channels), (y * width + x) * channels);
  }
  const data = await sharp(raw, { raw: { width, height, channels } }).png().toBuffer();
  return { data: new Uint8Array(data), mediaType: 'image/png' };
}

/** The decoded mask as rows of grey values, plus its real size and the PNG's channel count. */
async function decode(mask: ImageInput): Promise<{ width: number; height: number; channels: number; rows: number[][] }> {
  const { channels } = await sharp(mask.data).metadata();
  const { data, info } = await sharp(mask.data).raw().toBuffer({ resolveWithObject: true });
  const rows: number[][] = [];
  for (let y = 0; y < info.height; y++) {
    const row: number[] = [];
    for (let x = 0; x < info.width; x++) row.push(data[(y * info.width + x) * info.channels]);
    rows.push(row);
  }
  return { width: info.width, height: info.height, channels, rows };
}

describe('toIdeogramMask', () => {
  it('turns transparent pixels into black (edit) and opaque ones into white (keep)', async () => {
    const mask = await png(4, 2, 4, (x) => (x < 2 ? [0, 0, 0, 0] : [0, 0, 0, 255]));
    const out = await toIdeogramMask(mask, { width: 4, height: 2 });
    expect(out.mediaType).toBe('image/png');
    const decoded = await decode(out);
    expect(decoded).toMatchObject({ width: 4, height: 2, channels: 1 });
    expect(decoded.rows).toEqual([
      [0, 0, 255, 255],
      [0, 0, 255, 255],
    ]);
  });

  it('reads a mask without transparency by its grey level: white marks the area to edit', async () => {
    const mask = await png(3, 2, 3, (_x, y) => (y === 0 ? [255, 255, 255] : [0, 0, 0]));
    const decoded = await decode(await toIdeogramMask(mask, { width: 3, height: 2 }));
    expect(decoded.rows).toEqual([
      [0, 0, 0],
      [255, 255, 255],
    ]);
  });

  it('scales the mask to the size of the image', async () => {
    const mask = await png(2, 2, 4, (x, y) => (x === 0 && y === 0 ? [255, 255, 255, 0] : [255, 255, 255, 255]));
    const decoded = await decode(await toIdeogramMask(mask, { width: 8, height: 6 }));
    expect(decoded).toMatchObject({ width: 8, height: 6 });
    // The top-left quarter is the edit area; interpolation may blur the border, not the corners.
    expect(decoded.rows[0][0]).toBe(0);
    expect(decoded.rows[1][1]).toBe(0);
    expect(decoded.rows[0][7]).toBe(255);
    expect(decoded.rows[5][0]).toBe(255);
    expect(decoded.rows[5][7]).toBe(255);
    expect(new Set(decoded.rows.flat())).toEqual(new Set([0, 255]));
  });

  it('refuses a mask that marks nothing to edit, naming the mask', async () => {
    const mask = await png(2, 2, 3, () => [0, 0, 0]);
    const error = await toIdeogramMask(mask, { width: 2, height: 2 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GatewayError);
    expect(error).toMatchObject({ kind: 'invalid_request', param: 'mask', status: 400 });
  });
});

describe('wholeImageMask', () => {
  it('is all black (everything editable) at the given size', async () => {
    const decoded = await decode(await wholeImageMask({ width: 5, height: 3 }));
    expect(decoded).toMatchObject({ width: 5, height: 3, channels: 1 });
    expect(decoded.rows.flat()).toEqual(new Array(15).fill(0));
  });
});
