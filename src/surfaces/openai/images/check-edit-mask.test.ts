import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../../core/errors.js';
import { checkEditMask } from './check-edit-mask.js';

async function png(channels: 3 | 4, alpha = 1): Promise<Buffer> {
  return sharp({ create: { width: 16, height: 16, channels, background: { r: 0, g: 0, b: 0, alpha } } })
    .png()
    .toBuffer();
}

async function rejection(data: Buffer, mediaType = 'image/png'): Promise<GatewayError> {
  const error = await checkEditMask({ data, mediaType }).catch((e: unknown) => e);
  if (!(error instanceof GatewayError)) throw new Error('expected a GatewayError');
  return error;
}

describe('checkEditMask', () => {
  it('accepts a PNG with some transparency', async () => {
    const half = await sharp(await png(4))
      .composite([{ input: await png(4, 0), left: 0, top: 0, blend: 'source' }])
      .png()
      .toBuffer();
    await expect(checkEditMask({ data: half, mediaType: 'image/png' })).resolves.toBeUndefined();
    await expect(checkEditMask({ data: await png(4, 0), mediaType: 'image/png' })).resolves.toBeUndefined();
  });

  it('refuses a mask that marks nothing: opaque alpha, or no alpha at all', async () => {
    for (const data of [await png(4, 1), await png(3)]) {
      const error = await rejection(data);
      expect([error.status, error.param]).toEqual([400, 'mask']);
      expect(error.message).toBe('mask: the mask is entirely opaque, so it marks nothing to edit; make the area to edit transparent');
    }
  });

  it('refuses a mask that is not a PNG', async () => {
    const webp = await sharp(await png(4, 0))
      .webp()
      .toBuffer();
    expect((await rejection(webp, 'image/webp')).message).toBe('mask: the mask must be a PNG image whose transparent pixels mark the area to edit');
  });
});
