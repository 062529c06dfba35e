import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  FAKE_EDIT_COLOR,
  FAKE_IDEOGRAM_KEY,
  FAKE_REMIX_COLOR,
  fakeIdeogramChannel,
  startFakeIdeogramUpstream,
  type FakeIdeogramUpstream,
} from '../../../test/fakes/fake-ideogram-upstream.js';
import type { ImageInput, ImageResult } from '../../core/image.js';
import type { Attempt } from '../types.js';
import { ideogramDescriptor } from './index.js';
import { createProvider } from '../create-provider.js';

const provider = await createProvider(ideogramDescriptor);
const images = provider.images!;
let upstream: FakeIdeogramUpstream;

beforeAll(async () => {
  upstream = await startFakeIdeogramUpstream();
});
afterAll(async () => {
  await upstream.close();
});

function attempt(overrides: Partial<Attempt> = {}, apiKey = FAKE_IDEOGRAM_KEY): Attempt {
  return {
    channel: fakeIdeogramChannel(upstream, { apiKey }),
    upstreamModel: 'V_3',
    signal: new AbortController().signal,
    requestId: 'req_test',
    ...overrides,
  };
}

async function solidImage(width: number, height: number, rgb: [number, number, number], format: 'png' | 'gif' = 'png'): Promise<ImageInput> {
  const data = await sharp({ create: { width, height, channels: 3, background: { r: rgb[0], g: rgb[1], b: rgb[2] } } })
    [format]()
    .toBuffer();
  return { data: new Uint8Array(data), mediaType: `image/${format}` };
}

/** An RGBA PNG whose left `editColumns` columns are transparent (the canonical edit area). */
async function leftTransparentMask(width: number, height: number, editColumns: number): Promise<ImageInput> {
  const raw = Buffer.alloc(width * height * 4, 255);
  for (let y = 0; y < height; y++) for (let x = 0; x < editColumns; x++) raw[(y * width + x) * 4 + 3] = 0;
  const data = await sharp(raw, { raw: { width, height, channels: 4 } })
    .png()
    .toBuffer();
  return { data: new Uint8Array(data), mediaType: 'image/png' };
}

/** Downloads a produced image and reads its size and the RGB of some pixels. */
async function download(url: string): Promise<{ width: number; height: number; pixel(x: number, y: number): number[] }> {
  const response = await fetch(url);
  expect(response.headers.get('content-type')).toBe('image/png');
  const { data, info } = await sharp(Buffer.from(await response.arrayBuffer()))
    .raw()
    .toBuffer({ resolveWithObject: true });
  return {
    width: info.width,
    height: info.height,
    pixel: (x, y) => [...data.subarray((y * info.width + x) * info.channels, (y * info.width + x) * info.channels + 3)],
  };
}

const last = () => upstream.requests.at(-1)!;

describe('ideogram provider: remix', () => {
  it('posts the image as a file with image_weight on the 1–100 scale and Ideogram’s own field names', async () => {
    const source = await solidImage(300, 200, [200, 100, 0]);
    const result = await images.remix!(
      {
        model: 'imagegen2-v3',
        prompt: 'the same scene at night',
        image: source,
        imageWeight: 0.35,
        n: 1,
        aspectRatio: '16:9',
        seed: 42,
        responseFormat: 'url',
        options: { rendering_speed: 'TURBO', style_type: 'REALISTIC', magic_prompt: 'OFF', negative_prompt: 'people' },
      },
      attempt(),
    );

    const sent = last();
    expect(sent.path).toBe('/v1/ideogram-v3/remix');
    expect(sent.headers['api-key']).toBe(FAKE_IDEOGRAM_KEY);
    expect(sent.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    expect(sent.fields).toEqual({
      prompt: ['the same scene at night'],
      image_weight: ['35'],
      num_images: ['1'],
      seed: ['42'],
      rendering_speed: ['TURBO'],
      style_type: ['REALISTIC'],
      magic_prompt: ['OFF'],
      negative_prompt: ['people'],
      aspect_ratio: ['16x9'],
    });
    expect(sent.files.image).toHaveLength(1);
    expect(sent.files.image[0]).toMatchObject({ filename: 'image.png', type: 'image/png', width: 300, height: 200 });

    expect(result.images).toHaveLength(1);
    const [image] = result.images;
    expect(image).toMatchObject({ revisedPrompt: 'the same scene at night', resolution: '1344x768', seed: 42, isImageSafe: true, styleType: 'REALISTIC' });
    expect(Math.abs(result.created - Date.now() / 1000)).toBeLessThan(60);
    const png = await download(image.url!);
    expect([png.width, png.height]).toEqual([1344, 768]);
    // 35 % of the source colour, 65 % of the fake's remix colour.
    const expected = [200, 100, 0].map((c, i) => Math.round(c * 0.35 + FAKE_REMIX_COLOR[i] * 0.65));
    expect(png.pixel(600, 400)).toEqual(expected);
  });

  it('maps the weight ends onto 1 and 100 and sends no weight when none was asked', async () => {
    const source = await solidImage(64, 64, [10, 20, 30]);
    const base = { model: 'imagegen2-v3', prompt: 'p', image: source, n: 1, responseFormat: 'url' as const };
    await images.remix!({ ...base, imageWeight: 0 }, attempt());
    expect(last().fields.image_weight).toEqual(['1']);
    await images.remix!({ ...base, imageWeight: 1 }, attempt());
    expect(last().fields.image_weight).toEqual(['100']);
    await images.remix!(base, attempt());
    expect(last().fields.image_weight).toBeUndefined();
  });

  it('re-encodes an image type Ideogram does not take (GIF) as PNG', async () => {
    const gif = await solidImage(32, 24, [0, 0, 255], 'gif');
    await images.remix!({ model: 'imagegen2-v3', prompt: 'p', image: gif, n: 1, responseFormat: 'url' }, attempt());
    expect(last().files.image[0]).toMatchObject({ filename: 'image.png', type: 'image/png', width: 32, height: 24 });
  });
});

describe('ideogram provider: edit', () => {
  it('redraws the canonical mask black-on-white at the image’s size, so only the masked area changes', async () => {
    const source = await solidImage(40, 30, [0, 0, 255]);
    const result = await images.edit!(
      { model: 'imagegen2-v3', prompt: 'paint it', images: [source], mask: await leftTransparentMask(40, 30, 10), n: 1, responseFormat: 'url' },
      attempt(),
    );
    const sent = last();
    expect(sent.path).toBe('/v1/ideogram-v3/edit');
    expect(sent.fields).toEqual({ prompt: ['paint it'], num_images: ['1'] });
    expect(sent.files.mask[0]).toMatchObject({ filename: 'mask.png', type: 'image/png', width: 40, height: 30 });

    const png = await download(result.images[0].url!);
    expect([png.width, png.height]).toEqual([40, 30]);
    expect(png.pixel(0, 0)).toEqual([...FAKE_EDIT_COLOR]);
    expect(png.pixel(9, 29)).toEqual([...FAKE_EDIT_COLOR]);
    expect(png.pixel(10, 0)).toEqual([0, 0, 255]);
    expect(png.pixel(39, 29)).toEqual([0, 0, 255]);
    expect(result.images[0].resolution).toBe('40x30');
  });

  it('scales a mask of another size to the image', async () => {
    const source = await solidImage(40, 30, [0, 0, 255]);
    await images.edit!(
      { model: 'imagegen2-v3', prompt: 'paint it', images: [source], mask: await leftTransparentMask(20, 15, 10), n: 1, responseFormat: 'url' },
      attempt(),
    );
    expect(last().files.mask[0]).toMatchObject({ width: 40, height: 30 });
  });

  it('without a mask, lets the whole image change (Ideogram requires a mask)', async () => {
    const source = await solidImage(16, 8, [0, 255, 0]);
    const result = await images.edit!({ model: 'imagegen2-v3', prompt: 'all of it', images: [source], n: 1, responseFormat: 'url' }, attempt());
    const png = await download(result.images[0].url!);
    expect(png.pixel(0, 0)).toEqual([...FAKE_EDIT_COLOR]);
    expect(png.pixel(15, 7)).toEqual([...FAKE_EDIT_COLOR]);
  });

  it('sends further images as style references', async () => {
    const source = await solidImage(16, 8, [0, 255, 0]);
    const reference = await solidImage(8, 8, [255, 0, 0]);
    await images.edit!({ model: 'imagegen2-v3', prompt: 'p', images: [source, reference], n: 1, responseFormat: 'url' }, attempt());
    expect(last().files.style_reference_images.map((f) => [f.width, f.height])).toEqual([[8, 8]]);
  });
});

describe('ideogram provider: generate and blend', () => {
  it('sends an exact Ideogram resolution as `resolution` and other sizes as the nearest aspect ratio', async () => {
    const result = await images.generate!(
      { model: 'imagegen2-v3', prompt: 'a lighthouse', n: 2, size: { width: 1344, height: 768 }, responseFormat: 'url' },
      attempt(),
    );
    expect(last().path).toBe('/v1/ideogram-v3/generate');
    expect(last().fields).toEqual({ prompt: ['a lighthouse'], num_images: ['2'], resolution: ['1344x768'] });
    expect(result.images).toHaveLength(2);
    for (const image of result.images) expect([(await download(image.url!)).width, image.resolution]).toEqual([1344, '1344x768']);

    await images.generate!({ model: 'imagegen2-v3', prompt: 'a lighthouse', n: 1, size: { width: 1920, height: 1080 }, responseFormat: 'url' }, attempt());
    expect(last().fields.aspect_ratio).toEqual(['16x9']);
    expect(last().fields.resolution).toBeUndefined();
  });

  it('blends through generate with every image as a style reference and a default prompt', async () => {
    const red = await solidImage(64, 64, [255, 0, 0]);
    const blue = await solidImage(32, 48, [0, 0, 255]);
    const result = await images.blend!({ model: 'imagegen2-v3', images: [red, blue], n: 1, responseFormat: 'url' }, attempt());
    const sent = last();
    expect(sent.path).toBe('/v1/ideogram-v3/generate');
    expect(sent.fields).toEqual({ prompt: ['A blend of the reference images'], num_images: ['1'] });
    expect(sent.files.style_reference_images.map((f) => [f.filename, f.width, f.height])).toEqual([
      ['reference-1.png', 64, 64],
      ['reference-2.png', 32, 48],
    ]);
    const png = await download(result.images[0].url!);
    expect([png.width, png.height]).toEqual([1024, 1024]);
    expect(png.pixel(512, 512)).toEqual([128, 0, 128]);
  });
});

describe('ideogram provider: errors', () => {
  const generate = (prompt: string, at = attempt()): Promise<ImageResult> =>
    images.generate!({ model: 'imagegen2-v3', prompt, n: 1, responseFormat: 'url' }, at);

  it('turns the 422 safety refusal into a client error naming the policy', async () => {
    await expect(generate('something unsafe')).rejects.toMatchObject({
      kind: 'invalid_request',
      code: 'content_policy_violation',
      message: 'Prompt failed the safety check.',
      retryable: false,
    });
  });

  it('refuses an answer whose image failed the safety check', async () => {
    await expect(generate('a flagged-image please')).rejects.toMatchObject({ kind: 'invalid_request', code: 'content_policy_violation' });
  });

  it('makes 429, 5xx and refused channel keys retryable', async () => {
    await expect(generate('fail-429')).rejects.toMatchObject({ kind: 'rate_limit', retryable: true, retryAfter: 1, upstreamStatus: 429 });
    await expect(generate('fail-500')).rejects.toMatchObject({ kind: 'upstream', retryable: true, upstreamStatus: 500 });
    await expect(generate('fine', attempt({}, 'wrong-key'))).rejects.toMatchObject({ kind: 'upstream', retryable: true, upstreamStatus: 401 });
  });

  it('passes the upstream’s validation message on as a client error', async () => {
    await expect(images.generate!({ model: 'imagegen2-v3', prompt: 'p', n: 9, responseFormat: 'url' }, attempt())).rejects.toMatchObject({
      kind: 'invalid_request',
      status: 400,
      message: 'num_images: must be an integer from 1 to 8, got 9',
      upstreamStatus: 400,
    });
  });

  it('refuses legacy model names instead of silently answering with Ideogram 3.0', async () => {
    const before = upstream.requests.length;
    await expect(generate('p', attempt({ upstreamModel: 'V_2_TURBO' }))).rejects.toMatchObject({ kind: 'invalid_request', param: 'model' });
    expect(upstream.requests.length).toBe(before);
  });
});

describe('the ideogram provider', () => {
  it('declares the four image operations and nothing else', () => {
    expect(provider.name).toBe('ideogram');
    expect([...provider.operations].sort()).toEqual(['image.blend', 'image.edit', 'image.generate', 'image.remix']);
    expect(provider.chat).toBeUndefined();
  });
});
