import { describe, expect, it, vi } from 'vitest';
import type { ImageInput } from '../../core/image.js';
import type { ImageLoader } from './load-image-value.js';
import { parseRemixRequest } from './parse-remix-request.js';

const PICTURE: ImageInput = { data: new Uint8Array([1, 2, 3]), mediaType: 'image/png' };

function loader(): ImageLoader & { mock: { calls: unknown[][] } } {
  return vi.fn(async () => PICTURE) as unknown as ImageLoader & { mock: { calls: unknown[][] } };
}

async function failure(body: unknown, load = loader()): Promise<{ status: number; param?: string; message: string; loads: number }> {
  const error = (await parseRemixRequest(body, load).catch((e: unknown) => e)) as { status: number; param?: string; message: string };
  return { status: error.status, param: error.param, message: error.message, loads: load.mock.calls.length };
}

describe('parseRemixRequest', () => {
  it('maps every Ideogram field onto the canonical remix request', async () => {
    const load = loader();
    const request = await parseRemixRequest(
      {
        image: 'https://example.com/cat.png',
        prompt: 'a cat in space',
        image_weight: 0.7,
        model: 'imagegen2-v3',
        aspect_ratio: '16x9',
        seed: 99,
        rendering_speed: 'TURBO',
        style_type: 'FICTION',
        magic_prompt: 'OFF',
        negative_prompt: 'dogs',
        style_preset: 'WATERCOLOR',
        num_images: 3,
        response_format: 'b64_json',
      },
      load,
    );
    expect(request).toEqual({
      model: 'imagegen2-v3',
      prompt: 'a cat in space',
      image: PICTURE,
      imageWeight: 0.7,
      n: 3,
      seed: 99,
      aspectRatio: '16:9',
      responseFormat: 'b64_json',
      options: { rendering_speed: 'TURBO', style_type: 'FICTION', magic_prompt: 'OFF', negative_prompt: 'dogs', style_preset: 'WATERCOLOR' },
    });
    expect(load.mock.calls).toEqual([['https://example.com/cat.png', 'image']]);
  });

  it('defaults: model imagegen2-v3, one image, url answers, no weight, no options', async () => {
    expect(await parseRemixRequest({ image: 'aGk=', prompt: 'p' }, loader())).toEqual({
      model: 'imagegen2-v3',
      prompt: 'p',
      image: PICTURE,
      n: 1,
      responseFormat: 'url',
    });
  });

  it('accepts the three ways aspect ratios are written, and resolution as a size', async () => {
    for (const ratio of ['9:16', '9x16', 'ASPECT_9_16']) {
      expect((await parseRemixRequest({ image: 'x', prompt: 'p', aspect_ratio: ratio }, loader())).aspectRatio).toBe('9:16');
    }
    expect((await parseRemixRequest({ image: 'x', prompt: 'p', resolution: '1344x768' }, loader())).size).toEqual({ width: 1344, height: 768 });
  });

  it('refuses an image_weight outside 0–1, naming it, before fetching any image', async () => {
    expect(await failure({ image: 'https://example.com/a.png', prompt: 'p', image_weight: 2 })).toEqual({
      status: 400,
      param: 'image_weight',
      message: 'image_weight: must be ≤ 1, got 2',
      loads: 0,
    });
    expect(await failure({ image: 'x', prompt: 'p', image_weight: -0.1 })).toMatchObject({ param: 'image_weight' });
    expect(await failure({ image: 'x', prompt: 'p', image_weight: '0.5' })).toMatchObject({ param: 'image_weight' });
  });

  it('names each missing or wrong field', async () => {
    expect(await failure({ image: 'x' })).toMatchObject({ status: 400, param: 'prompt', message: 'prompt: is required' });
    expect(await failure({ image: 'x', prompt: '  ' })).toMatchObject({ param: 'prompt' });
    expect(await failure({ prompt: 'p' })).toMatchObject({ param: 'image' });
    expect(await failure({ image: 'x', prompt: 'p', num_images: 9 })).toMatchObject({ param: 'num_images' });
    expect(await failure({ image: 'x', prompt: 'p', seed: 1.5 })).toMatchObject({ param: 'seed' });
    expect(await failure({ image: 'x', prompt: 'p', response_format: 'png' })).toMatchObject({ param: 'response_format' });
    expect(await failure({ image: 'x', prompt: 'p', rendering_speed: 'FAST' })).toMatchObject({ param: 'rendering_speed' });
    expect(await failure({ image: 'x', prompt: 'p', style_type: 'ANIME' })).toMatchObject({ param: 'style_type' });
    expect(await failure({ image: 'x', prompt: 'p', aspect_ratio: '7:3' })).toMatchObject({ param: 'aspect_ratio' });
    expect(await failure({ image: 'x', prompt: 'p', resolution: '1000x1000' })).toMatchObject({ param: 'resolution' });
    expect(await failure({ image: 'x', prompt: 'p', aspect_ratio: '1x1', resolution: '1024x1024' })).toMatchObject({ param: 'aspect_ratio' });
    expect(await failure({ image: 'x', prompt: 'p', model: '' })).toMatchObject({ param: 'model' });
    expect(await failure(['not', 'an', 'object'])).toMatchObject({ param: 'body' });
  });
});
