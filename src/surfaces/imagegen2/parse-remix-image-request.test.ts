import { describe, expect, it, vi } from 'vitest';
import type { ImageInput } from '../../core/image.js';
import type { ImageLoader } from './load-image-value.js';
import { parseRemixImageRequest } from './parse-remix-image-request.js';

const picture = (n: number): ImageInput => ({ data: new Uint8Array([n]), mediaType: 'image/png' });

describe('parseRemixImageRequest', () => {
  it('loads each image under its own param and keeps the prompt and size fields', async () => {
    const load = vi.fn(async (_value: unknown, param: string) => picture(Number(/\d+/.exec(param)![0])));
    const request = await parseRemixImageRequest(
      { images: ['https://example.com/a.png', 'data:image/png;base64,AAAA', 'BBBB'], prompt: 'one scene', aspect_ratio: '4:3', num_images: 2 },
      load as ImageLoader,
    );
    expect(request).toEqual({
      model: 'imagegen2-v3',
      images: [picture(0), picture(1), picture(2)],
      prompt: 'one scene',
      n: 2,
      aspectRatio: '4:3',
      responseFormat: 'url',
    });
    expect(load.mock.calls).toEqual([
      ['https://example.com/a.png', 'images[0]'],
      ['data:image/png;base64,AAAA', 'images[1]'],
      ['BBBB', 'images[2]'],
    ]);
  });

  it('leaves a blank prompt out', async () => {
    const request = await parseRemixImageRequest({ images: ['a', 'b'], prompt: ' ' }, (async () => picture(0)) as ImageLoader);
    expect(request.prompt).toBeUndefined();
  });

  it('takes 2 to 5 images; other counts are refused naming images, before any fetch', async () => {
    const load = vi.fn(async () => picture(0));
    for (const images of [['only-one'], [], ['1', '2', '3', '4', '5', '6']]) {
      const error = await parseRemixImageRequest({ images }, load as ImageLoader).catch((e: unknown) => e);
      expect(error).toMatchObject({ status: 400, param: 'images', message: `images: a blend takes 2 to 5 images, got ${images.length}` });
    }
    await expect(parseRemixImageRequest({ images: 'a' }, load as ImageLoader)).rejects.toMatchObject({ param: 'images' });
    await expect(parseRemixImageRequest({ prompt: 'p' }, load as ImageLoader)).rejects.toMatchObject({ param: 'images' });
    expect(load).not.toHaveBeenCalled();
  });
});
