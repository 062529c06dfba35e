import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  fakeOpenAIImagesChannel,
  FAKE_IMAGES_CREATED,
  startFakeOpenAIImagesUpstream,
  type FakeOpenAIImagesUpstream,
} from '../../../../test/fakes/fake-openai-images-upstream.js';
import { GatewayError } from '../../../core/errors.js';
import type { ImageInput } from '../../../core/image.js';
import type { Attempt } from '../../types.js';
import { createOpenAIImages } from './openai-images.js';

let upstream: FakeOpenAIImagesUpstream;
const provider = createOpenAIImages({});

function attempt(upstreamModel: string, overrides: Partial<Attempt['channel']> = {}): Attempt {
  return { channel: fakeOpenAIImagesChannel(upstream, overrides), upstreamModel, signal: new AbortController().signal, requestId: 'req_t' };
}

async function pngOf(width: number, height: number, alpha = false): Promise<ImageInput> {
  const data = await sharp({ create: { width, height, channels: alpha ? 4 : 3, background: { r: 10, g: 200, b: 30, alpha: 0 } } })
    .png()
    .toBuffer();
  return { data, mediaType: 'image/png' };
}

beforeAll(async () => {
  upstream = await startFakeOpenAIImagesUpstream();
});
afterAll(() => upstream.close());

describe('createOpenAIImages against the fake OpenAI Images API', () => {
  it('generates with gpt-image-1: base64 PNGs of the asked size, no response_format sent', async () => {
    const result = await provider.generate!(
      { model: 'textmodel-b-image-1', prompt: 'a red bicycle', n: 2, size: { width: 1536, height: 1024 }, responseFormat: 'url' },
      attempt('gpt-image-1'),
    );
    const sent = upstream.requests.at(-1)!;
    expect(sent.path).toBe('/v1/images/generations');
    expect(sent.headers.authorization).toBe('Bearer sk-fake-openai-images');
    expect(sent.json).toEqual({ model: 'gpt-image-1', prompt: 'a red bicycle', n: 2, size: '1536x1024' });
    expect(result.created).toBe(FAKE_IMAGES_CREATED);
    expect(result.images).toHaveLength(2);
    for (const image of result.images) {
      expect(image.mediaType).toBe('image/png');
      const meta = await sharp(image.data!).metadata();
      expect([meta.format, meta.width, meta.height]).toEqual(['png', 1536, 1024]);
    }
  });

  it('keeps dall-e-3 revised prompts', async () => {
    const result = await provider.generate!({ model: 'dall-e-3', prompt: 'a fox', n: 1, responseFormat: 'b64_json' }, attempt('dall-e-3'));
    expect(upstream.requests.at(-1)!.json).toEqual({ model: 'dall-e-3', prompt: 'a fox', n: 1, response_format: 'b64_json' });
    expect(result.images[0].revisedPrompt).toBe('A detailed picture of a fox');
  });

  it('edits with a multipart upload: one image and a mask, parsed by the fake', async () => {
    const image = await pngOf(256, 256);
    const mask = await pngOf(256, 256, true);
    const result = await provider.edit!(
      { model: 'textmodel-b-image-1', prompt: 'add a moon', n: 1, size: { width: 1024, height: 1536 }, responseFormat: 'b64_json', images: [image], mask },
      attempt('gpt-image-1'),
    );
    const sent = upstream.requests.at(-1)!;
    expect(sent.path).toBe('/v1/images/edits');
    expect(sent.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    expect(sent.fields).toEqual({ model: ['gpt-image-1'], prompt: ['add a moon'], n: ['1'], size: ['1024x1536'] });
    expect(Object.keys(sent.files!)).toEqual(['image', 'mask']);
    expect(sent.files!.image[0].bytes.equals(Buffer.from(image.data))).toBe(true);
    expect(sent.files!.image[0]).toMatchObject({ filename: 'image-1.png', type: 'image/png' });
    expect(sent.files!.mask[0].bytes.equals(Buffer.from(mask.data))).toBe(true);
    const meta = await sharp(result.images[0].data!).metadata();
    expect([meta.width, meta.height]).toEqual([1024, 1536]);
  });

  it('sends several images as repeated image[] parts', async () => {
    const images = [await pngOf(64, 64), await pngOf(32, 32), await pngOf(16, 16)];
    await provider.edit!({ model: 'm', prompt: 'combine', n: 1, size: { width: 1024, height: 1024 }, responseFormat: 'url', images }, attempt('gpt-image-1'));
    const sent = upstream.requests.at(-1)!;
    expect(Object.keys(sent.files!)).toEqual(['image[]']);
    expect(sent.files!['image[]'].map((file) => file.bytes.length)).toEqual(images.map((image) => image.data.length));
  });

  it('passes an upstream URL on when the upstream answers with one', async () => {
    // A model the provider sends no response_format for, which the fake answers with a URL (as OpenAI-compatible servers often do).
    const result = await provider.generate!({ model: 'm', prompt: 'p', n: 1, responseFormat: 'url' }, attempt('sdxl-compatible'));
    expect(result.images[0].url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/files\/img-\d+\.png$/);
    const fetched = Buffer.from(await (await fetch(result.images[0].url!)).arrayBuffer());
    expect((await sharp(fetched).metadata()).width).toBe(1024);
  });

  it('maps upstream errors: client errors as they are, refused credentials and 5xx as retryable', async () => {
    const bad = (await provider.generate!(
      { model: 'm', prompt: 'p', n: 1, size: { width: 640, height: 480 }, responseFormat: 'url' },
      attempt('gpt-image-1'),
    ).catch((e: unknown) => e)) as GatewayError;
    expect(bad).toBeInstanceOf(GatewayError);
    expect([bad.kind, bad.status, bad.retryable, bad.code]).toEqual(['invalid_request', 400, false, 'invalid_value']);
    expect(bad.message).toBe("Invalid value: '640x480'. Supported values are: '1024x1024', '1024x1536', '1536x1024', and 'auto'.");

    const refused = (await provider.generate!({ model: 'm', prompt: 'p', n: 1, responseFormat: 'url' }, attempt('gpt-image-1', { apiKey: 'sk-wrong' })).catch(
      (e: unknown) => e,
    )) as GatewayError;
    expect([refused.kind, refused.retryable, refused.code]).toEqual(['upstream', true, undefined]);

    upstream.setNext('fail-503');
    const overloaded = (await provider.generate!({ model: 'm', prompt: 'p', n: 1, responseFormat: 'url' }, attempt('gpt-image-1')).catch(
      (e: unknown) => e,
    )) as GatewayError;
    expect([overloaded.kind, overloaded.retryable]).toEqual(['overloaded', true]);
  });
});
