import sharp from 'sharp';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_MAX_IMAGE_PIXELS } from '../../core/image-bytes.js';
import { GatewayError } from '../../core/errors.js';
import type { ImageEditRequest, ImageInput } from '../../core/image.js';
import { configureImageDecoding, decodeSlotUsage } from '../../media/image-decoding.js';
import type { Attempt } from '../../providers/types.js';
import { resolveSandboxSettings, type SandboxRuntimeSettings } from '../sandbox-settings.js';
import { createSandboxImages } from './sandbox-images.js';

const settings = resolveSandboxSettings({ tokensPerSecond: 0, firstTokenDelayMs: 0, failureRate: 0 }, {});
const images = createSandboxImages(() => settings);

function attempt(overrides: Partial<Attempt> = {}): Attempt {
  return {
    channel: { name: 'sandbox', provider: 'sandbox', baseUrl: '', apiKey: '', headers: {}, timeoutMs: 5_000, options: {} },
    upstreamModel: 'textmodel-b-image-1',
    signal: new AbortController().signal,
    requestId: 'req_test',
    ...overrides,
  };
}

const W = 64;
const H = 48;

/** A 64×48 RGB picture whose red channel stays within 0–40: R = x·40/63, G = y·5, B = 100. */
function basePixels(): Buffer {
  const raw = Buffer.alloc(W * H * 3);
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      const i = (y * W + x) * 3;
      raw[i] = Math.round((x * 40) / 63);
      raw[i + 1] = y * 5;
      raw[i + 2] = 100;
    }
  }
  return raw;
}

let base: ImageInput;
let leftTransparentMask: ImageInput;
let leftWhiteGreyMask: ImageInput;

async function rawOf(png: Uint8Array): Promise<{ data: Buffer; channels: number; width: number; height: number }> {
  const { data, info } = await sharp(png).raw().toBuffer({ resolveWithObject: true });
  return { data, channels: info.channels, width: info.width, height: info.height };
}

beforeAll(async () => {
  base = {
    data: await sharp(basePixels(), { raw: { width: W, height: H, channels: 3 } })
      .png()
      .toBuffer(),
    mediaType: 'image/png',
  };
  const maskRgba = Buffer.alloc(W * H * 4);
  const grey = Buffer.alloc(W * H);
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      const p = y * W + x;
      maskRgba[p * 4 + 3] = x < W / 2 ? 0 : 255;
      grey[p] = x < W / 2 ? 255 : 0;
    }
  }
  leftTransparentMask = {
    data: await sharp(maskRgba, { raw: { width: W, height: H, channels: 4 } })
      .png()
      .toBuffer(),
    mediaType: 'image/png',
  };
  leftWhiteGreyMask = {
    data: await sharp(grey, { raw: { width: W, height: H, channels: 1 } })
      .png()
      .toBuffer(),
    mediaType: 'image/png',
  };
});

describe('sandbox generate', () => {
  it('renders PNGs of exactly the requested size, 1024×1024 by default', async () => {
    const sized = await images.generate!(
      { model: 'imagegen1-dev', prompt: 'a lighthouse', n: 1, size: { width: 640, height: 360 }, responseFormat: 'url' },
      attempt(),
    );
    expect(sized.images).toHaveLength(1);
    const meta = await sharp(sized.images[0].data!).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['png', 640, 360]);
    expect(sized.images[0]).toMatchObject({ mediaType: 'image/png', revisedPrompt: 'a lighthouse', resolution: '640x360', isImageSafe: true });

    const unsized = await images.generate!({ model: 'imagegen1-dev', prompt: 'a lighthouse', n: 1, responseFormat: 'url' }, attempt());
    const defaults = await sharp(unsized.images[0].data!).metadata();
    expect([defaults.width, defaults.height]).toEqual([1024, 1024]);
  });

  it('is deterministic per request, and n pictures differ from each other', async () => {
    const request = { model: 'imagegen1-dev', prompt: 'three boats', n: 3, size: { width: 128, height: 128 }, responseFormat: 'b64_json' as const };
    const first = await images.generate!(request, attempt());
    const again = await images.generate!({ ...request, responseFormat: 'url' }, attempt());
    const other = await images.generate!({ ...request, prompt: 'three cars' }, attempt());
    const bytes = first.images.map((image) => Buffer.from(image.data!).toString('base64'));
    expect(again.images.map((image) => Buffer.from(image.data!).toString('base64'))).toEqual(bytes);
    expect(new Set(bytes).size).toBe(3);
    expect(Buffer.from(other.images[0].data!).toString('base64')).not.toBe(bytes[0]);
  });

  it('reports the client seed, counted up per picture', async () => {
    const result = await images.generate!(
      { model: 'imagegen1-dev', prompt: 'x', n: 2, seed: 41, size: { width: 64, height: 64 }, responseFormat: 'url' },
      attempt(),
    );
    expect(result.images.map((image) => image.seed)).toEqual([41, 42]);
  });

  it('fails as a drill asks, retryably', async () => {
    const failing: SandboxRuntimeSettings = { ...settings, failModels: new Set(['imagegen1-pro']) };
    const error = await createSandboxImages(() => failing).generate!({ model: 'imagegen1-pro', prompt: 'x', n: 1, responseFormat: 'url' }, attempt()).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(GatewayError);
    expect((error as GatewayError).retryable).toBe(true);
  });
});

describe('sandbox edit', () => {
  const edit = (overrides: Partial<ImageEditRequest>) =>
    images.edit!(
      { model: 'textmodel-b-image-1', prompt: 'make it glow', n: 1, size: { width: W, height: H }, responseFormat: 'url', images: [base], ...overrides },
      attempt(),
    );

  it('changes only the transparent area of the mask; elsewhere the pixels stay as they were', async () => {
    const result = await edit({ mask: leftTransparentMask });
    expect(result.images[0].revisedPrompt).toBe('make it glow');
    const out = await rawOf(result.images[0].data!);
    expect([out.width, out.height, out.channels]).toEqual([W, H, 3]);
    const original = basePixels();
    let changedLeft = 0;
    for (let y = 0; y < H; y++) {
      for (let x = 0; x < W; x++) {
        const i = (y * W + x) * 3;
        const pixel = [out.data[i], out.data[i + 1], out.data[i + 2]];
        const before = [original[i], original[i + 1], original[i + 2]];
        if (x >= W / 2) expect(pixel).toEqual(before);
        else if (Math.abs(pixel[0] - before[0]) > 20) changedLeft++;
      }
    }
    expect(changedLeft).toBe((W / 2) * H);
  });

  it('reads a mask without alpha as white = edit', async () => {
    const out = await rawOf((await edit({ mask: leftWhiteGreyMask })).images[0].data!);
    const original = basePixels();
    const at = (x: number, y: number, data: Buffer) => Array.from(data.subarray((y * W + x) * 3, (y * W + x) * 3 + 3));
    expect(at(W - 1, 0, out.data)).toEqual(at(W - 1, 0, original));
    expect(at(0, 0, out.data)).not.toEqual(at(0, 0, original));
  });

  it('edits the whole image without a mask, at the requested size, the same way each time', async () => {
    const first = await edit({ size: { width: 128, height: 96 } });
    const again = await edit({ size: { width: 128, height: 96 } });
    const meta = await sharp(first.images[0].data!).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['png', 128, 96]);
    expect(Buffer.from(again.images[0].data!).equals(Buffer.from(first.images[0].data!))).toBe(true);
    const out = await rawOf(first.images[0].data!);
    // Top-left pixel: base R=0 → inverted 255 (before tint) — far from the original whatever the tint.
    expect(out.data[0]).toBeGreaterThan(100);
  });

  it('refuses an image sharp cannot decode as the client error it is', async () => {
    const broken: ImageInput = { data: Buffer.concat([Buffer.from(base.data).subarray(0, 8), Buffer.from('not really a png')]), mediaType: 'image/png' };
    const error = (await edit({ images: [broken] }).catch((e: unknown) => e)) as GatewayError;
    expect(error).toBeInstanceOf(GatewayError);
    expect([error.status, error.param]).toEqual([400, 'image']);
  });
});

describe('sandbox remix and blend', () => {
  it('keeps all of the image at imageWeight 1 (above the label band) and mixes it at 0.5', async () => {
    const remix = (imageWeight: number) =>
      images.remix!(
        { model: 'imagegen2-v3', prompt: 'in winter', n: 1, size: { width: W, height: H }, responseFormat: 'url', image: base, imageWeight },
        attempt(),
      );
    const whole = await rawOf((await remix(1)).images[0].data!);
    const half = await rawOf((await remix(0.5)).images[0].data!);
    const original = basePixels();
    expect(Array.from(whole.data.subarray(0, W * 3 * 10))).toEqual(Array.from(original.subarray(0, W * 3 * 10)));
    expect(Array.from(half.data.subarray(0, W * 3 * 10))).not.toEqual(Array.from(original.subarray(0, W * 3 * 10)));
  });

  it('blends 2–5 images into the size of the first', async () => {
    const other: ImageInput = {
      data: await sharp({ create: { width: 100, height: 30, channels: 3, background: { r: 255, g: 255, b: 255 } } })
        .jpeg()
        .toBuffer(),
      mediaType: 'image/jpeg',
    };
    const result = await images.blend!({ model: 'imagegen2-v3', n: 2, responseFormat: 'url', images: [base, other] }, attempt());
    expect(result.images).toHaveLength(2);
    for (const image of result.images) {
      const meta = await sharp(image.data!).metadata();
      expect([meta.width, meta.height]).toEqual([W, H]);
      expect(image.revisedPrompt).toBe('a blend of 2 images');
    }
    // Top-left: mean of R=0 and R=255 ≈ 128, then 15% of a pattern: stays within 108–146.
    const out = await rawOf(result.images[0].data!);
    expect(out.data[0]).toBeGreaterThanOrEqual(108);
    expect(out.data[0]).toBeLessThanOrEqual(146);
  });

  it('refuses fewer than 2 or more than 5 images', async () => {
    for (const count of [1, 6]) {
      const error = (await images.blend!({ model: 'imagegen2-v3', n: 1, responseFormat: 'url', images: Array(count).fill(base) }, attempt()).catch(
        (e: unknown) => e,
      )) as GatewayError;
      expect([error.status, error.param]).toEqual([400, 'images']);
    }
  });
});

describe('sandbox image bounds', () => {
  it('refuses more pictures than it draws per request, and sizes beyond its bounds, with a 400', async () => {
    const many = await images.generate!({ model: 'imagegen1-dev', prompt: 'x', n: 1_000, responseFormat: 'url' }, attempt()).catch((e: unknown) => e);
    expect(many).toBeInstanceOf(GatewayError);
    expect(many).toMatchObject({ status: 400, param: 'n' });
    const huge = await images.generate!(
      { model: 'imagegen1-dev', prompt: 'x', n: 1, size: { width: 50_000, height: 50_000 }, responseFormat: 'url' },
      attempt(),
    ).catch((e: unknown) => e);
    expect(huge).toMatchObject({ status: 400, param: 'size' });
  });
});

describe('sandbox decoding limits (finding 3, defence in depth)', () => {
  afterEach(() => configureImageDecoding({ maxPixels: DEFAULT_MAX_IMAGE_PIXELS }));

  it('finding 3: sharp refuses a client image over the pixel cap even when it skipped the header check', async () => {
    configureImageDecoding({ maxPixels: W * H - 1 });
    const error = (await images.remix!({ model: 'imagegen2-v3', prompt: 'p', n: 1, responseFormat: 'url', image: base }, attempt()).catch(
      (e: unknown) => e,
    )) as GatewayError;
    expect(error).toBeInstanceOf(GatewayError);
    expect([error.status, error.param]).toEqual([400, 'image']);
    expect(error.message).toContain('exceeds pixel limit');
    configureImageDecoding({ maxPixels: W * H });
    await expect(images.remix!({ model: 'imagegen2-v3', prompt: 'p', n: 1, responseFormat: 'url', image: base }, attempt())).resolves.toBeDefined();
  });

  it('finding 3: num_images pictures of several requests are drawn at most two at a time', async () => {
    let peak = 0;
    const watch = setInterval(() => (peak = Math.max(peak, decodeSlotUsage().active)), 1);
    const remix = () =>
      images.remix!({ model: 'imagegen2-v3', prompt: 'p', n: 4, size: { width: 512, height: 512 }, responseFormat: 'url', image: base }, attempt());
    const results = await Promise.all([remix(), remix(), remix()]);
    clearInterval(watch);
    expect(results.flatMap((result) => result.images)).toHaveLength(12);
    expect(peak).toBeGreaterThan(0);
    expect(peak).toBeLessThanOrEqual(2);
    expect(decodeSlotUsage()).toEqual({ active: 0, queued: 0 });
  });

  it('finding 3: an output sized from a large input image fits 4096 on its longer side', async () => {
    const wide: ImageInput = {
      data: await sharp({ create: { width: 8192, height: 16, channels: 3, background: 'white' } })
        .png()
        .toBuffer(),
      mediaType: 'image/png',
    };
    const result = await images.remix!({ model: 'imagegen2-v3', prompt: 'p', n: 1, responseFormat: 'url', image: wide }, attempt());
    expect(result.images[0].resolution).toBe('4096x8');
  });
});
