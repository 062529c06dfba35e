import { describe, expect, it, vi } from 'vitest';
import { jpegHeader, pngHeader, webpVp8lHeader } from '../../../test/helpers/image-headers.js';
import { DEFAULT_IMAGE_LIMITS } from '../../core/image-bytes.js';
import type { ImageInput } from '../../core/image.js';
import { createImageLoader } from './load-image-value.js';

const PNG_BYTES = pngHeader(40, 30);
const PNG_BASE64 = PNG_BYTES.toString('base64');
const imageLimits = DEFAULT_IMAGE_LIMITS;

describe('createImageLoader', () => {
  const fetched: ImageInput = { data: webpVp8lHeader(20, 10), mediaType: 'image/webp', filename: 'a.webp' };
  const signal = new AbortController().signal;

  it('fetches URLs through the gateway’s guarded fetch, with the param and the client’s signal', async () => {
    const fetchImage = vi.fn(async () => fetched);
    const load = createImageLoader({ fetchImage, imageLimits }, signal);
    expect(await load(' https://example.com/a.png ', 'images[1]')).toMatchObject({
      data: fetched.data,
      mediaType: 'image/webp',
      filename: 'a.webp',
      width: 20,
      height: 10,
    });
    expect(await load('ftp://example.com/a.png', 'image')).toMatchObject({ data: fetched.data });
    expect(fetchImage.mock.calls).toEqual([
      ['https://example.com/a.png', 'images[1]', signal],
      ['ftp://example.com/a.png', 'image', signal],
    ]);
  });

  it('decodes data URLs and bare base64, typing the bytes by their content', async () => {
    const load = createImageLoader({ fetchImage: vi.fn(), imageLimits }, signal);
    for (const value of [PNG_BASE64, `data:image/jpeg;base64,${PNG_BASE64}`]) {
      const image = await load(value, 'image');
      expect(image).toMatchObject({ mediaType: 'image/png', width: 40, height: 30 });
      expect(Buffer.from(image.data).equals(PNG_BYTES)).toBe(true);
    }
  });

  it('refuses what is not an image string, naming the param', async () => {
    const load = createImageLoader({ fetchImage: vi.fn(), imageLimits }, signal);
    await expect(load(42, 'image')).rejects.toMatchObject({ status: 400, param: 'image', message: 'image: expected a string, got a number' });
    await expect(load('', 'mask')).rejects.toMatchObject({ status: 400, param: 'mask' });
    await expect(load('%%%', 'images[0]')).rejects.toMatchObject({ status: 400, param: 'images[0]', message: 'images[0]: invalid base64 data' });
    await expect(load(Buffer.from('GIF00a not an image').toString('base64'), 'image')).rejects.toMatchObject({ status: 400, param: 'image' });
  });

  it('finding 3: refuses an image over the configured pixel cap, inline or fetched, naming the param', async () => {
    const bomb = jpegHeader(12000, 12000);
    const load = createImageLoader({ fetchImage: vi.fn(async () => ({ data: bomb, mediaType: 'image/jpeg' })), imageLimits }, signal);
    await expect(load(bomb.toString('base64'), 'images[1]')).rejects.toMatchObject({ status: 400, param: 'images[1]' });
    await expect(load('https://example.com/bomb.jpg', 'image')).rejects.toMatchObject({ status: 400, param: 'image' });
    const strict = createImageLoader({ fetchImage: vi.fn(), imageLimits: { maxBytes: 1_000_000, maxPixels: 1000 } }, signal);
    await expect(strict(PNG_BASE64, 'image')).rejects.toMatchObject({ status: 400, param: 'image', message: expect.stringContaining('40×30 pixels') });
  });

  it('finding 3: counts the pixels of all images one loader (one request) takes, refusing the one that goes over', async () => {
    const load = createImageLoader({ fetchImage: vi.fn(), imageLimits: { maxBytes: 1_000_000, maxPixels: 1200 } }, signal);
    for (let i = 0; i < 4; i++) await load(PNG_BASE64, `images[${i}]`);
    await expect(load(PNG_BASE64, 'images[4]')).rejects.toMatchObject({
      status: 400,
      param: 'images[4]',
      message: expect.stringContaining("the request's images add up"),
    });
    // Another request has its own budget.
    const next = createImageLoader({ fetchImage: vi.fn(), imageLimits: { maxBytes: 1_000_000, maxPixels: 1200 } }, signal);
    await expect(next(PNG_BASE64, 'images[0]')).resolves.toMatchObject({ width: 40 });
  });
});
