import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { GatewayError } from '../../core/errors.js';
import type { ImageInput } from '../../core/image.js';
import { installJsonBodyParser } from '../../http/json-body-parser.js';
import type { RouteInfo } from '../../core/route.js';
import type { GatewayServices, ImageCall, ImagesOutcome } from '../../gateway/contract.js';
import { imagegen2Surface } from './index.js';
import { jpegHeader, pngHeader } from '../../../test/helpers/image-headers.js';
import { unusedServices } from '../../../test/helpers/unused-services.js';

const KEY = 'gg-imagegen2-test-key';
const route: RouteInfo = { channel: 'ideogram-main', provider: 'ideogram', simulated: false, upstreamModel: 'V_3', attempts: 1, passthrough: false };
const PNG_BASE64 = pngHeader(64, 48).toString('base64');
const FETCHED: ImageInput = { data: jpegHeader(320, 200), mediaType: 'image/jpeg', filename: 'cat.jpg' };

describe('imagegen2Surface', () => {
  let app: FastifyInstance;
  let base: string;
  const calls: ImageCall[] = [];
  const fetches: Array<[string, string]> = [];
  let next: ImagesOutcome | GatewayError;

  const services: GatewayServices = {
    ...unusedServices,
    async authenticate(presented) {
      if (presented !== KEY) throw new GatewayError('authentication', presented ? 'invalid API key' : 'missing API key');
      return { id: 'key-1', name: 'test', models: null, isMaster: false, accountId: null };
    },
    chat: () => {
      throw new Error('chat is not used by this test');
    },
    listModels: () => [],
    async images(call) {
      calls.push(call);
      if (next instanceof GatewayError) throw next;
      return next;
    },
    async fetchImage(url, param) {
      fetches.push([url, param]);
      return FETCHED;
    },
  };

  const post = (path: string, body: unknown, headers: Record<string, string> = { authorization: `Bearer ${KEY}` }) =>
    fetch(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });

  beforeAll(async () => {
    app = Fastify();
    installJsonBodyParser(app);
    await imagegen2Surface.register(app, services);
    base = await app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await app.close();
  });
  beforeEach(() => {
    calls.length = 0;
    fetches.length = 0;
    next = {
      route,
      result: {
        created: 1_746_100_830,
        images: [
          {
            mediaType: 'image/png',
            width: 1024,
            height: 1024,
            url: 'http://gw/media/xyz',
            revisedPrompt: 'a cat, detailed',
            seed: 3,
            isImageSafe: true,
            styleType: 'GENERAL',
          },
        ],
      },
    };
  });

  it('remix: authenticates, fetches the URL image, calls image.remix and answers in Ideogram’s shape', async () => {
    const response = await post('/imagegen2/remix', { image: 'https://example.com/cat.jpg', prompt: 'a cat', image_weight: 0.25 });
    expect(response.status).toBe(200);
    expect(response.headers.get('x-gengate-provider')).toBe('ideogram');
    expect(response.headers.get('x-gengate-channel')).toBe('ideogram-main');
    expect(await response.json()).toEqual({
      created: '2025-05-01T12:00:30.000Z',
      data: [{ url: 'http://gw/media/xyz', prompt: 'a cat, detailed', resolution: '1024x1024', is_image_safe: true, seed: 3, style_type: 'GENERAL' }],
    });
    expect(fetches).toEqual([['https://example.com/cat.jpg', 'image']]);
    expect(calls).toHaveLength(1);
    const { signal, requestId, key, http, ...call } = calls[0];
    // The call holds its HTTP request (the access log and traces read it there).
    expect(http?.headers).toBeDefined();
    expect(signal).toBeInstanceOf(AbortSignal);
    expect(requestId).toMatch(/.+/);
    expect(key.id).toBe('key-1');
    expect(call).toEqual({
      surface: 'imagegen2',
      publicBaseUrl: base,
      operation: 'image.remix',
      request: { model: 'imagegen2-v3', prompt: 'a cat', image: { ...FETCHED, width: 320, height: 200 }, imageWeight: 0.25, n: 1, responseFormat: 'url' },
    });
  });

  it('edit and remix-image map onto image.edit and image.blend', async () => {
    expect((await post('/imagegen2/edit', { image: PNG_BASE64, prompt: 'fix it' })).status).toBe(200);
    expect((await post('/imagegen2/remix-image', { images: [PNG_BASE64, `data:image/png;base64,${PNG_BASE64}`] })).status).toBe(200);
    expect(calls.map((c) => c.operation)).toEqual(['image.edit', 'image.blend']);
    expect(calls[0].request).toMatchObject({ prompt: 'fix it', images: [{ mediaType: 'image/png' }] });
    expect(calls[1].request).toMatchObject({ images: [{ mediaType: 'image/png' }, { mediaType: 'image/png' }] });
    expect((calls[1].request as { prompt?: string }).prompt).toBeUndefined();
  });

  it('accepts Ideogram’s own Api-Key header as well as Bearer', async () => {
    expect((await post('/imagegen2/remix', { image: PNG_BASE64, prompt: 'p' }, { 'api-key': KEY })).status).toBe(200);
  });

  it('answers a missing key with 401 {detail}', async () => {
    const response = await post('/imagegen2/remix', { image: PNG_BASE64, prompt: 'p' }, {});
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ detail: 'missing API key' });
    expect(calls).toHaveLength(0);
  });

  it('answers bad input with 400 {detail} naming the field, without calling the service', async () => {
    const cases: Array<[string, unknown, string]> = [
      ['/imagegen2/remix', { image: PNG_BASE64, prompt: 'p', image_weight: 2 }, 'image_weight: must be ≤ 1, got 2'],
      ['/imagegen2/remix', { image: PNG_BASE64 }, 'prompt: is required'],
      ['/imagegen2/remix', { image: '***', prompt: 'p' }, 'image: invalid base64 data'],
      ['/imagegen2/edit', { image: PNG_BASE64, prompt: 'p', mask: '' }, 'mask: the image is empty (no base64 data)'],
      ['/imagegen2/remix-image', { images: [PNG_BASE64] }, 'images: a blend takes 2 to 5 images, got 1'],
    ];
    for (const [path, body, detail] of cases) {
      const response = await post(path, body);
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual({ detail });
    }
    expect(calls).toHaveLength(0);
  });

  it('answers an empty or malformed body with 400', async () => {
    const empty = await fetch(`${base}/imagegen2/remix`, { method: 'POST', headers: { authorization: `Bearer ${KEY}` } });
    expect(empty.status).toBe(400);
    expect(await empty.json()).toEqual({ detail: 'the request body is empty; a JSON object is required' });
    const malformed = await fetch(`${base}/imagegen2/remix`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      body: '{"image":',
    });
    expect(malformed.status).toBe(400);
    expect(((await malformed.json()) as { detail: string }).detail).toMatch(/^malformed JSON body/);
  });

  it('answers a safety refusal with 422 and a rate limit with 429 and Retry-After', async () => {
    next = new GatewayError('invalid_request', 'Prompt failed the safety check.', { code: 'content_policy_violation' });
    const refused = await post('/imagegen2/remix', { image: PNG_BASE64, prompt: 'p' });
    expect(refused.status).toBe(422);
    expect(await refused.json()).toEqual({ detail: 'Prompt failed the safety check.' });

    next = new GatewayError('rate_limit', 'too many requests', { retryAfter: 4 });
    const limited = await post('/imagegen2/remix', { image: PNG_BASE64, prompt: 'p' });
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('4');
    expect(await limited.json()).toEqual({ detail: 'too many requests' });
  });
});
