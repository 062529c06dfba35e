/**
 * The OpenAI image endpoints end to end, with the official `openai` SDK as the client: the
 * sandbox (real PNGs, real masked edits), routing to a faithful fake of OpenAI's Images API
 * (`textmodel-b-image-1` → `gpt-image-1`), images given by URL fetched from a local server, and
 * bad input answered with 400s in OpenAI's shape. Every image is decoded and measured.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import OpenAI, { toFile } from 'openai';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAKE_OPENAI_IMAGES_KEY, startFakeOpenAIImagesUpstream, type FakeOpenAIImagesUpstream } from './fakes/fake-openai-images-upstream.js';
import { startGateway, type RunningGateway } from './helpers/start-gateway.js';

const SIDE = 128;
let sandboxGw: RunningGateway;
let routedGw: RunningGateway;
let upstream: FakeOpenAIImagesUpstream;
let photoServer: Server;
let photoUrl: string;
let photoRequests = 0;
/** A 128×128 RGB picture: R = x·2, G = y·2, B = 90. */
let photo: Buffer;
/** Transparent on the left half, opaque on the right. */
let leftHalfMask: Buffer;
let opaqueMask: Buffer;

function photoPixels(): Buffer {
  const raw = Buffer.alloc(SIDE * SIDE * 3);
  for (let y = 0; y < SIDE; y++) {
    for (let x = 0; x < SIDE; x++) {
      const i = (y * SIDE + x) * 3;
      raw[i] = x * 2;
      raw[i + 1] = y * 2;
      raw[i + 2] = 90;
    }
  }
  return raw;
}

async function measure(bytes: Buffer): Promise<[string | undefined, number | undefined, number | undefined]> {
  const meta = await sharp(bytes).metadata();
  return [meta.format, meta.width, meta.height];
}

beforeAll(async () => {
  photo = await sharp(photoPixels(), { raw: { width: SIDE, height: SIDE, channels: 3 } })
    .png()
    .toBuffer();
  const alpha = Buffer.alloc(SIDE * SIDE * 4);
  for (let p = 0; p < SIDE * SIDE; p++) alpha[p * 4 + 3] = p % SIDE < SIDE / 2 ? 0 : 255;
  leftHalfMask = await sharp(alpha, { raw: { width: SIDE, height: SIDE, channels: 4 } })
    .png()
    .toBuffer();
  opaqueMask = await sharp({ create: { width: SIDE, height: SIDE, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 1 } } })
    .png()
    .toBuffer();

  photoServer = createServer((req, res) => {
    photoRequests++;
    if (req.url === '/photo.png') {
      res.writeHead(200, { 'content-type': 'image/png', 'content-length': photo.length });
      res.end(photo);
    } else {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('not found');
    }
  });
  await new Promise<void>((resolve) => photoServer.listen(0, '127.0.0.1', resolve));
  photoUrl = `http://127.0.0.1:${(photoServer.address() as AddressInfo).port}/photo.png`;

  upstream = await startFakeOpenAIImagesUpstream();
  [sandboxGw, routedGw] = await Promise.all([
    startGateway({ media: { allowPrivateUrls: true } }),
    startGateway({
      channels: [
        {
          name: 'openai-images',
          provider: 'openai',
          baseUrl: upstream.url,
          apiKey: FAKE_OPENAI_IMAGES_KEY,
          models: ['textmodel-b-image-1'],
          modelMap: { 'textmodel-b-image-1': 'gpt-image-1' },
        },
      ],
    }),
  ]);
});

afterAll(async () => {
  await Promise.all([sandboxGw?.close(), routedGw?.close(), upstream?.close()]);
  await new Promise<void>((resolve) => photoServer.close(() => resolve()));
});

const sandboxClient = () => new OpenAI({ baseURL: `${sandboxGw.url}/v1`, apiKey: sandboxGw.key, maxRetries: 0 });
const routedClient = () => new OpenAI({ baseURL: `${routedGw.url}/v1`, apiKey: routedGw.key, maxRetries: 0 });

describe('images.generate on the sandbox', () => {
  it('answers a URL into the gateway media store by default, serving a PNG of the asked size', async () => {
    const { data, response } = await sandboxClient()
      .images.generate({ model: 'imagegen1-dev', prompt: 'a lighthouse at dusk', size: '1024x768' })
      .withResponse();
    expect(response.headers.get('x-gengate-simulated')).toBe('true');
    expect(response.headers.get('x-gengate-provider')).toBe('sandbox');
    expect(data.data).toHaveLength(1);
    const url = data.data![0].url!;
    expect(url.startsWith(`${sandboxGw.url}/media/`)).toBe(true);
    expect(data.data![0].b64_json).toBeUndefined();
    const media = await fetch(url);
    expect(media.status).toBe(200);
    expect(media.headers.get('content-type')).toBe('image/png');
    expect(await measure(Buffer.from(await media.arrayBuffer()))).toEqual(['png', 1024, 768]);
  });

  it('answers base64 when asked: n different PNGs of the asked size', async () => {
    const data = await sandboxClient().images.generate({ model: 'imagegen1-schnell', prompt: 'two kites', n: 2, size: '512x512', response_format: 'b64_json' });
    const pngs = data.data!.map((image) => Buffer.from(image.b64_json!, 'base64'));
    expect(pngs).toHaveLength(2);
    for (const png of pngs) expect(await measure(png)).toEqual(['png', 512, 512]);
    expect(pngs[0].equals(pngs[1])).toBe(false);
    expect(data.data![0].revised_prompt).toBe('two kites');
  });
});

describe('images.edit on the sandbox', () => {
  it('edits an uploaded file inside the mask only', async () => {
    const data = await sandboxClient().images.edit({
      model: 'textmodel-b-image-1',
      prompt: 'paint the left side',
      image: await toFile(photo, 'photo.png', { type: 'image/png' }),
      mask: await toFile(leftHalfMask, 'mask.png', { type: 'image/png' }),
      size: `${SIDE}x${SIDE}` as '1024x1024',
      response_format: 'b64_json',
    });
    expect(data.data![0].revised_prompt).toBe('paint the left side');
    const png = Buffer.from(data.data![0].b64_json!, 'base64');
    expect(await measure(png)).toEqual(['png', SIDE, SIDE]);
    const { data: out, info } = await sharp(png).raw().toBuffer({ resolveWithObject: true });
    expect(info.channels).toBe(3);
    const original = photoPixels();
    let unchangedRight = 0;
    let changedLeft = 0;
    for (let p = 0; p < SIDE * SIDE; p++) {
      const same = out[p * 3] === original[p * 3] && out[p * 3 + 1] === original[p * 3 + 1] && out[p * 3 + 2] === original[p * 3 + 2];
      if (p % SIDE >= SIDE / 2) unchangedRight += same ? 1 : 0;
      else changedLeft += same ? 0 : 1;
    }
    expect(unchangedRight).toBe((SIDE * SIDE) / 2);
    expect(changedLeft).toBe((SIDE * SIDE) / 2);
  });

  it('answers the spec default size, 1024×1024, when none is asked', async () => {
    const data = await sandboxClient().images.edit({
      model: 'textmodel-b-image-1',
      prompt: 'bigger',
      image: await toFile(photo, 'photo.png'),
      response_format: 'b64_json',
    });
    expect(await measure(Buffer.from(data.data![0].b64_json!, 'base64'))).toEqual(['png', 1024, 1024]);
  });

  it('fetches an image given by URL in a JSON edit', async () => {
    const before = photoRequests;
    const res = await fetch(`${sandboxGw.url}/v1/images/edits`, {
      method: 'POST',
      headers: { authorization: `Bearer ${sandboxGw.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'textmodel-b-image-1', prompt: 'snow', images: [{ image_url: photoUrl }], size: '256x192', response_format: 'b64_json' }),
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { created: number; data: Array<{ b64_json: string; revised_prompt: string }> };
    expect(photoRequests).toBe(before + 1);
    expect(body.data).toHaveLength(1);
    expect(body.data[0].revised_prompt).toBe('snow');
    expect(await measure(Buffer.from(body.data[0].b64_json, 'base64'))).toEqual(['png', 256, 192]);
  });
});

describe('routing to the OpenAI images channel', () => {
  it('generates through gpt-image-1 and stores the base64 answer for a URL', async () => {
    const { data, response } = await routedClient().images.generate({ model: 'textmodel-b-image-1', prompt: 'a green door', size: '1536x1024' }).withResponse();
    expect(response.headers.get('x-gengate-provider')).toBe('openai');
    expect(response.headers.get('x-gengate-channel')).toBe('openai-images');
    expect(response.headers.get('x-gengate-simulated')).toBeNull();
    expect(upstream.requests.at(-1)!.json).toEqual({ model: 'gpt-image-1', prompt: 'a green door', n: 1, size: '1536x1024' });
    const media = await fetch(data.data![0].url!);
    expect(await measure(Buffer.from(await media.arrayBuffer()))).toEqual(['png', 1536, 1024]);
  });

  it('edits with a multipart upload the fake parses, image and mask intact', async () => {
    const data = await routedClient().images.edit({
      model: 'textmodel-b-image-1',
      prompt: 'add a cat',
      image: await toFile(photo, 'photo.png', { type: 'image/png' }),
      mask: await toFile(leftHalfMask, 'mask.png', { type: 'image/png' }),
      response_format: 'b64_json',
    });
    const sent = upstream.requests.at(-1)!;
    expect(sent.path).toBe('/v1/images/edits');
    expect(sent.fields).toEqual({ model: ['gpt-image-1'], prompt: ['add a cat'], n: ['1'], size: ['1024x1024'] });
    expect(sent.files!.image[0].bytes.equals(photo)).toBe(true);
    expect(sent.files!.mask[0].bytes.equals(leftHalfMask)).toBe(true);
    // The fake answers the input image resized to the asked size: its corner colour survives.
    const png = Buffer.from(data.data![0].b64_json!, 'base64');
    expect(await measure(png)).toEqual(['png', 1024, 1024]);
    const { data: pixels } = await sharp(png).raw().toBuffer({ resolveWithObject: true });
    expect([pixels[0], pixels[1], pixels[2]]).toEqual([0, 0, 90]);
  });
});

describe('bad input: a 400 in the OpenAI shape naming the param', () => {
  async function badRequest(run: () => Promise<unknown>): Promise<InstanceType<typeof OpenAI.BadRequestError>> {
    const error = await run().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    const bad = error as InstanceType<typeof OpenAI.BadRequestError>;
    expect(bad.status).toBe(400);
    expect(bad.type).toBe('invalid_request_error');
    return bad;
  }

  it('invalid base64', async () => {
    const res = await fetch(`${sandboxGw.url}/v1/images/edits`, {
      method: 'POST',
      headers: { authorization: `Bearer ${sandboxGw.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'textmodel-b-image-1', prompt: 'p', image: 'data:image/png;base64,***' }),
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: { message: 'image: invalid base64 data', type: 'invalid_request_error', param: 'image', code: null } });
  });

  it('a text file as the image', async () => {
    const error = await badRequest(async () =>
      sandboxClient().images.edit({
        model: 'textmodel-b-image-1',
        prompt: 'p',
        image: await toFile(Buffer.from('dear diary'), 'notes.txt', { type: 'text/plain' }),
      }),
    );
    expect(error.param).toBe('image');
    expect(error.message).toBe('400 image: unsupported image type; expected a PNG, JPEG, WebP or GIF image');
  });

  it('an empty mask', async () => {
    const error = await badRequest(async () =>
      sandboxClient().images.edit({
        model: 'textmodel-b-image-1',
        prompt: 'p',
        image: await toFile(photo, 'photo.png'),
        mask: await toFile(opaqueMask, 'mask.png', { type: 'image/png' }),
      }),
    );
    expect(error.param).toBe('mask');
    expect(error.message).toBe('400 mask: the mask is entirely opaque, so it marks nothing to edit; make the area to edit transparent');
  });

  it('17 images', async () => {
    const image = await Promise.all(Array.from({ length: 17 }, (_, i) => toFile(photo, `photo-${i}.png`)));
    const error = await badRequest(() => sandboxClient().images.edit({ model: 'textmodel-b-image-1', prompt: 'p', image }));
    expect(error.param).toBe('image');
  });

  it('n: 0', async () => {
    const error = await badRequest(() => sandboxClient().images.generate({ model: 'imagegen1-dev', prompt: 'p', n: 0 }));
    expect(error.param).toBe('n');
    expect(error.message).toBe('400 n: must be ≥ 1, got 0');
  });
});
