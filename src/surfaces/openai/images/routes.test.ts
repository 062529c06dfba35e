/**
 * The image routes driven by the official openai SDK (multipart edits, JSON generations) and by
 * plain fetch (JSON edits, bad input), against stub services that record what they were asked.
 */
import Fastify, { type FastifyInstance } from 'fastify';
import OpenAI, { toFile } from 'openai';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GatewayError, invalidRequest } from '../../../core/errors.js';
import type { ImageEditRequest } from '../../../core/image.js';
import { installJsonBodyParser } from '../../../http/json-body-parser.js';
import { DEFAULT_IMAGE_LIMITS } from '../../../core/image-bytes.js';
import type { RouteInfo } from '../../../core/route.js';
import { unusedServices } from '../../../../test/helpers/unused-services.js';
import type { GatewayServices, ImageCall } from '../../../gateway/contract.js';
import { registerOpenAIImageRoutes } from './routes.js';
import { authenticateFirst } from '../../../http/authenticate-first.js';
import { bearerToken, useErrorRenderer } from '../../../http/reply-helpers.js';
import { renderOpenAIError } from '../render-error.js';

const KEY = 'sk-gw-images';
const BODY_LIMIT = 2 * 1024 * 1024;
const route: RouteInfo = { channel: 'stub', provider: 'sandbox', simulated: true, upstreamModel: 'stub-model', attempts: 1, passthrough: false };

let app: FastifyInstance;
let client: OpenAI;
let baseUrl: string;
const calls: ImageCall[] = [];
const fetched: Array<{ url: string; param: string }> = [];
let photo: Buffer;
let mask: Buffer;
let opaqueMask: Buffer;

const services: GatewayServices = {
  async authenticate(presented) {
    if (presented !== KEY) throw new GatewayError('authentication', 'Incorrect API key provided');
    return { id: 'k', name: 'test', models: null, isMaster: false, accountId: null };
  },
  chat: () => Promise.reject(new Error('unused')),
  listModels: () => [],
  checkAccess: () => undefined,
  tasks: unusedServices.tasks,
  background: unusedServices.background,
  responses: unusedServices.responses,
  embed: () => Promise.reject(new Error('unused')),
  async images(call) {
    calls.push(call);
    const n = call.request.n;
    const asUrl = call.request.responseFormat === 'url';
    return {
      route,
      result: {
        created: 1_700_000_321,
        images: Array.from({ length: n }, (_, i) => ({
          mediaType: 'image/png',
          width: 8,
          height: 8,
          ...(asUrl ? { url: `${call.publicBaseUrl}/media/stub${i}` } : { b64Json: `c3R1Yg${i}=` }),
          ...(call.operation === 'image.edit' ? { revisedPrompt: `edited: ${call.request.prompt}` } : {}),
        })),
      },
    };
  },
  imageLimits: DEFAULT_IMAGE_LIMITS,
  async fetchImage(url, param) {
    fetched.push({ url, param });
    if (url === 'https://images.example/photo.png') return { data: photo, mediaType: 'image/png', filename: 'photo.png' };
    throw invalidRequest(`${param}: could not fetch the image (HTTP 404)`, param);
  },
};

beforeAll(async () => {
  photo = await sharp({ create: { width: 32, height: 24, channels: 3, background: { r: 10, g: 120, b: 200 } } })
    .png()
    .toBuffer();
  mask = await sharp({ create: { width: 32, height: 24, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } } })
    .png()
    .toBuffer();
  opaqueMask = await sharp({ create: { width: 32, height: 24, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 1 } } })
    .png()
    .toBuffer();
  app = Fastify({ bodyLimit: BODY_LIMIT });
  installJsonBodyParser(app);
  await app.register(async (scope) => {
    // As the OpenAI surface mounts them: its error shape, and the key checked on the headers first.
    useErrorRenderer(scope, renderOpenAIError);
    authenticateFirst(scope, (presented) => services.authenticate(presented), bearerToken);
    await registerOpenAIImageRoutes(scope, services);
  });
  baseUrl = await app.listen({ port: 0, host: '127.0.0.1' });
  client = new OpenAI({ baseURL: `${baseUrl}/v1`, apiKey: KEY, maxRetries: 0 });
});
afterAll(() => app.close());

function lastEdit(): ImageEditRequest {
  const call = calls.at(-1)!;
  if (call.operation !== 'image.edit') throw new Error(`expected an edit, got ${call.operation}`);
  return call.request;
}

async function postJson(path: string, body: unknown): Promise<{ status: number; body: { error: Record<string, unknown> } }> {
  const res = await fetch(`${baseUrl}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as { error: Record<string, unknown> } };
}

async function badRequest(run: () => Promise<unknown>): Promise<InstanceType<typeof OpenAI.BadRequestError>> {
  const error = await run().catch((e: unknown) => e);
  expect(error).toBeInstanceOf(OpenAI.BadRequestError);
  return error as InstanceType<typeof OpenAI.BadRequestError>;
}

describe('POST /v1/images/generations', () => {
  it('answers images.generate with media URLs on the gateway the client reached', async () => {
    const { data, response } = await client.images.generate({ model: 'imagegen1-dev', prompt: 'a lighthouse at dusk', n: 2, size: '1024x768' }).withResponse();
    expect(data).toEqual({ created: 1_700_000_321, data: [{ url: `${baseUrl}/media/stub0` }, { url: `${baseUrl}/media/stub1` }] });
    expect(response.headers.get('x-gengate-simulated')).toBe('true');
    const call = calls.at(-1)!;
    expect(call.operation).toBe('image.generate');
    expect(call.surface).toBe('openai');
    expect(call.publicBaseUrl).toBe(baseUrl);
    expect(call.request).toEqual({ model: 'imagegen1-dev', prompt: 'a lighthouse at dusk', n: 2, size: { width: 1024, height: 768 }, responseFormat: 'url' });
  });

  it('answers base64 when asked', async () => {
    const data = await client.images.generate({ model: 'textmodel-b-image-1', prompt: 'x', response_format: 'b64_json', quality: 'high' });
    expect(data).toEqual({ created: 1_700_000_321, data: [{ b64_json: 'c3R1Yg0=' }] });
    expect(calls.at(-1)!.request).toEqual({ model: 'textmodel-b-image-1', prompt: 'x', n: 1, responseFormat: 'b64_json', options: { quality: 'high' } });
  });

  it('refuses n: 0 with a BadRequestError naming n', async () => {
    const error = await badRequest(() => client.images.generate({ model: 'imagegen1-dev', prompt: 'x', n: 0 }));
    expect([error.status, error.param, error.type]).toEqual([400, 'n', 'invalid_request_error']);
  });

  it('refuses an unknown key with an AuthenticationError', async () => {
    const stranger = new OpenAI({ baseURL: `${baseUrl}/v1`, apiKey: 'sk-nope', maxRetries: 0 });
    await expect(stranger.images.generate({ model: 'm', prompt: 'x' })).rejects.toBeInstanceOf(OpenAI.AuthenticationError);
  });
});

describe('POST /v1/images/edits, multipart as the SDK sends it', () => {
  it('reads one uploaded image and a mask, with the spec default size', async () => {
    const data = await client.images.edit({
      model: 'textmodel-b-image-1',
      prompt: 'add a red balloon',
      image: await toFile(photo, 'photo.png', { type: 'image/png' }),
      mask: await toFile(mask, 'mask.png', { type: 'image/png' }),
      n: 2,
      response_format: 'b64_json',
    });
    expect(data).toEqual({
      created: 1_700_000_321,
      data: [
        { b64_json: 'c3R1Yg0=', revised_prompt: 'edited: add a red balloon' },
        { b64_json: 'c3R1Yg1=', revised_prompt: 'edited: add a red balloon' },
      ],
    });
    const request = lastEdit();
    expect(request).toMatchObject({
      model: 'textmodel-b-image-1',
      prompt: 'add a red balloon',
      n: 2,
      size: { width: 1024, height: 1024 },
      responseFormat: 'b64_json',
    });
    expect(request.images).toHaveLength(1);
    expect(request.images[0]).toMatchObject({ mediaType: 'image/png', filename: 'photo.png' });
    expect(Buffer.from(request.images[0].data).equals(photo)).toBe(true);
    expect(Buffer.from(request.mask!.data).equals(mask)).toBe(true);
  });

  it('reads repeated image[] parts in order, sniffing types whatever the upload says', async () => {
    const jpeg = await sharp(photo).jpeg().toBuffer();
    await client.images.edit({
      model: 'textmodel-b-image-1',
      prompt: 'merge',
      image: [await toFile(photo, 'a.png'), await toFile(jpeg, 'b.png', { type: 'image/png' })],
      size: '1536x1024',
      quality: 'low',
      input_fidelity: 'high',
    });
    const request = lastEdit();
    expect(request.images.map((image) => [image.filename, image.mediaType, image.data.length])).toEqual([
      ['a.png', 'image/png', photo.length],
      ['b.png', 'image/jpeg', jpeg.length],
    ]);
    expect(request.size).toEqual({ width: 1536, height: 1024 });
    expect(request.options).toEqual({ quality: 'low', inputFidelity: 'high' });
    expect(request.mask).toBeUndefined();
  });

  it('refuses a text file as the image, naming image', async () => {
    const error = await badRequest(async () =>
      client.images.edit({ model: 'm', prompt: 'p', image: await toFile(Buffer.from('just some notes\n'), 'notes.txt', { type: 'text/plain' }) }),
    );
    expect([error.param, error.message]).toEqual(['image', '400 image: unsupported image type; expected a PNG, JPEG, WebP or GIF image']);
  });

  it('refuses an empty mask: entirely opaque, or zero bytes', async () => {
    for (const bytes of [opaqueMask, Buffer.alloc(0)]) {
      const error = await badRequest(async () =>
        client.images.edit({ model: 'm', prompt: 'p', image: await toFile(photo, 'photo.png'), mask: await toFile(bytes, 'mask.png', { type: 'image/png' }) }),
      );
      expect(error.param).toBe('mask');
    }
  });

  it('refuses 17 images, naming image', async () => {
    const image = await Promise.all(Array.from({ length: 17 }, (_, i) => toFile(photo, `p${i}.png`)));
    const error = await badRequest(() => client.images.edit({ model: 'm', prompt: 'p', image }));
    expect([error.param, error.message]).toEqual(['image', '400 image: at most 16 images are allowed']);
  });

  it('refuses an unknown key before reading the upload', async () => {
    const stranger = new OpenAI({ baseURL: `${baseUrl}/v1`, apiKey: 'sk-nope', maxRetries: 0 });
    const upload = await toFile(Buffer.alloc(512 * 1024, 1), 'big.png', { type: 'image/png' });
    await expect(stranger.images.edit({ model: 'm', prompt: 'p', image: upload })).rejects.toBeInstanceOf(OpenAI.AuthenticationError);
  });

  it('refuses a form field that is not a number where one is expected', async () => {
    const form = new FormData();
    form.append('model', 'm');
    form.append('prompt', 'p');
    form.append('n', 'two');
    form.append('image', new Blob([photo], { type: 'image/png' }), 'photo.png');
    const res = await fetch(`${baseUrl}/v1/images/edits`, { method: 'POST', headers: { authorization: `Bearer ${KEY}` }, body: form });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: { message: 'n: expected a number, got a string', type: 'invalid_request_error', param: 'n', code: null } });
  });

  it('refuses a body over the gateway limit with a 413', async () => {
    const form = new FormData();
    form.append('model', 'm');
    form.append('prompt', 'p');
    form.append('image', new Blob([Buffer.alloc(BODY_LIMIT + 1)], { type: 'image/png' }), 'huge.png');
    const res = await fetch(`${baseUrl}/v1/images/edits`, { method: 'POST', headers: { authorization: `Bearer ${KEY}` }, body: form });
    expect(res.status).toBe(413);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('request_too_large');
  });
});

describe('POST /v1/images/edits, JSON', () => {
  it('fetches URLs through the guarded fetch and decodes data URLs', async () => {
    const dataUrl = `data:image/png;base64,${mask.toString('base64')}`;
    const res = await postJson('/v1/images/edits', {
      model: 'textmodel-b-image-1',
      prompt: 'snow',
      images: [{ image_url: 'https://images.example/photo.png' }, { image_url: `data:image/png;base64,${photo.toString('base64')}` }],
      mask: { image_url: dataUrl },
      size: 'auto',
    });
    expect(res.status).toBe(200);
    expect(fetched.at(-1)).toEqual({ url: 'https://images.example/photo.png', param: 'images[0].image_url' });
    const request = lastEdit();
    expect(request.size).toBeUndefined();
    expect(request.images.map((image) => [image.mediaType, Buffer.from(image.data).equals(photo)])).toEqual([
      ['image/png', true],
      ['image/png', true],
    ]);
    expect(Buffer.from(request.mask!.data).equals(mask)).toBe(true);
  });

  it.each([
    ['invalid base64', { image: 'data:image/png;base64,@@not-base64@@' }, 'image', 'image: invalid base64 data'],
    [
      'a data URL of a text file',
      { image: `data:text/plain;base64,${Buffer.from('hello').toString('base64')}` },
      'image',
      'image: unsupported image type; expected a PNG, JPEG, WebP or GIF image',
    ],
    ['a URL the fetch refuses', { image: 'https://images.example/missing.png' }, 'image', 'image: could not fetch the image (HTTP 404)'],
    ['an ftp URL', { image: 'ftp://images.example/photo.png' }, 'image', 'image: expected an http(s) URL, a base64 data URL or base64 data'],
    [
      '17 images',
      { images: Array.from({ length: 17 }, () => ({ image_url: 'https://images.example/photo.png' })) },
      'images',
      'images: at most 16 images are allowed, got 17',
    ],
    ['no image', {}, 'image', 'image: is required'],
    [
      'a file_id',
      { images: [{ file_id: 'file-123' }] },
      'images[0].file_id',
      'images[0].file_id: file_id is not supported; send image_url with a URL or a data URL',
    ],
  ])('refuses %s with a 400 naming the param', async (_label, extra, param, message) => {
    const res = await postJson('/v1/images/edits', { model: 'textmodel-b-image-1', prompt: 'p', ...extra });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: { message, type: 'invalid_request_error', param, code: null } });
  });

  it('refuses an opaque mask given as a data URL', async () => {
    const res = await postJson('/v1/images/edits', {
      model: 'm',
      prompt: 'p',
      image: `data:image/png;base64,${photo.toString('base64')}`,
      mask: `data:image/png;base64,${opaqueMask.toString('base64')}`,
    });
    expect(res.status).toBe(400);
    expect(res.body.error.param).toBe('mask');
  });
});
