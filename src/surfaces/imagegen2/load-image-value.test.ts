import { describe, expect, it, vi } from 'vitest';
import type { ImageInput } from '../../core/image.js';
import { createImageLoader } from './load-image-value.js';

// The 8-byte PNG signature is enough for the type sniffing.
const PNG_BYTES = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0];
const PNG_BASE64 = Buffer.from(PNG_BYTES).toString('base64');

describe('createImageLoader', () => {
  const fetched: ImageInput = { data: new Uint8Array([9]), mediaType: 'image/webp' };
  const signal = new AbortController().signal;

  it('fetches URLs through the gateway’s guarded fetch, with the param and the client’s signal', async () => {
    const fetchImage = vi.fn(async () => fetched);
    const load = createImageLoader({ fetchImage }, signal);
    expect(await load(' https://example.com/a.png ', 'images[1]')).toBe(fetched);
    expect(await load('ftp://example.com/a.png', 'image')).toBe(fetched);
    expect(fetchImage.mock.calls).toEqual([
      ['https://example.com/a.png', 'images[1]', signal],
      ['ftp://example.com/a.png', 'image', signal],
    ]);
  });

  it('decodes data URLs and bare base64, typing the bytes by their content', async () => {
    const load = createImageLoader({ fetchImage: vi.fn() }, signal);
    for (const value of [PNG_BASE64, `data:image/jpeg;base64,${PNG_BASE64}`]) {
      const image = await load(value, 'image');
      expect(image.mediaType).toBe('image/png');
      expect([...image.data]).toEqual(PNG_BYTES);
    }
  });

  it('refuses what is not an image string, naming the param', async () => {
    const load = createImageLoader({ fetchImage: vi.fn() }, signal);
    await expect(load(42, 'image')).rejects.toMatchObject({ status: 400, param: 'image', message: 'image: expected a string, got a number' });
    await expect(load('', 'mask')).rejects.toMatchObject({ status: 400, param: 'mask' });
    await expect(load('%%%', 'images[0]')).rejects.toMatchObject({ status: 400, param: 'images[0]', message: 'images[0]: invalid base64 data' });
    await expect(load(Buffer.from('GIF00a not an image').toString('base64'), 'image')).rejects.toMatchObject({ status: 400, param: 'image' });
  });
});
