/**
 * `/imagegen2/remix`, `/imagegen2/edit` and `/imagegen2/remix-image` end to end through real
 * gateways: one served by the sandbox, one by an `ideogram` channel pointing at the fake
 * Ideogram upstream. Input images come as URLs (served by a local server, so the gateway's
 * guarded fetch must allow private addresses), data URLs and bare base64; outputs are fetched
 * from the gateway's media store or decoded from base64, and checked with sharp.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAKE_EDIT_COLOR, FAKE_IDEOGRAM_KEY, startFakeIdeogramUpstream, type FakeIdeogramUpstream } from './fakes/fake-ideogram-upstream.js';
import { startGateway, type RunningGateway } from './helpers/start-gateway.js';

interface IdeogramAnswer {
  created: string;
  data: Array<{ url?: string | null; b64_json?: string; prompt: string; resolution: string; is_image_safe: boolean; seed: number; style_type: string }>;
}

const BLUE: [number, number, number] = [0, 0, 255];

async function solidPng(width: number, height: number, rgb: [number, number, number]): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: rgb[0], g: rgb[1], b: rgb[2] } } })
    .png()
    .toBuffer();
}

/** An Ideogram mask: black (edit) on the left `editColumns` columns, white elsewhere. */
async function leftBlackMask(width: number, height: number, editColumns: number): Promise<Buffer> {
  const raw = Buffer.alloc(width * height, 255);
  for (let y = 0; y < height; y++) raw.fill(0, y * width, y * width + editColumns);
  return sharp(raw, { raw: { width, height, channels: 1 } })
    .png()
    .toBuffer();
}

interface Decoded {
  format?: string;
  width: number;
  height: number;
  pixel(x: number, y: number): number[];
}

async function decode(bytes: Uint8Array): Promise<Decoded> {
  const { format } = await sharp(bytes).metadata();
  const { data, info } = await sharp(bytes).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return {
    format,
    width: info.width,
    height: info.height,
    pixel: (x, y) => [...data.subarray((y * info.width + x) * 3, (y * info.width + x) * 3 + 3)],
  };
}

/** A local server handing out test images by URL, as a client's CDN would. */
async function startImageServer(images: Record<string, Buffer>): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    const image = images[(req.url ?? '').replace(/^\//, '')];
    if (!image) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': 'image/png', 'content-length': String(image.length) });
    res.end(image);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

let upstream: FakeIdeogramUpstream;
let imageServer: { url: string; server: Server };
let sandboxGw: RunningGateway;
let ideogramGw: RunningGateway;
let redPng: Buffer;
let bluePng: Buffer;
let mask: Buffer;

beforeAll(async () => {
  redPng = await solidPng(300, 200, [255, 0, 0]);
  bluePng = await solidPng(64, 48, BLUE);
  mask = await leftBlackMask(64, 48, 16);
  upstream = await startFakeIdeogramUpstream();
  imageServer = await startImageServer({ 'red.png': redPng, 'blue.png': bluePng });
  [sandboxGw, ideogramGw] = await Promise.all([
    startGateway({ media: { allowPrivateUrls: true } }),
    startGateway({
      media: { allowPrivateUrls: true },
      channels: [
        {
          name: 'ideogram-main',
          provider: 'ideogram',
          baseUrl: upstream.url,
          apiKey: FAKE_IDEOGRAM_KEY,
          models: ['imagegen2-*'],
          modelMap: { 'imagegen2-v3': 'V_3' },
        },
      ],
    }),
  ]);
});

afterAll(async () => {
  await Promise.all([sandboxGw?.close(), ideogramGw?.close()]);
  await upstream?.close();
  await new Promise<void>((resolve) => (imageServer ? imageServer.server.close(() => resolve()) : resolve()));
});

function post(gw: RunningGateway, path: string, body: unknown, key: string | null = gw.key): Promise<Response> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (key !== null) headers.authorization = `Bearer ${key}`;
  return fetch(`${gw.url}${path}`, { method: 'POST', headers, body: JSON.stringify(body) });
}

/** Downloads an answer's image from the gateway's media store (no key needed: the link is the capability). */
async function download(gw: RunningGateway, url: string): Promise<Decoded> {
  expect(url.startsWith(`${gw.url}/media/`)).toBe(true);
  const response = await fetch(url);
  expect(response.status).toBe(200);
  return decode(new Uint8Array(await response.arrayBuffer()));
}

function expectIdeogramShape(body: IdeogramAnswer, count: number): void {
  expect(Number.isNaN(Date.parse(body.created))).toBe(false);
  expect(body.created).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/);
  expect(body.data).toHaveLength(count);
  for (const image of body.data) {
    expect(Object.keys(image).sort()).toEqual(
      [image.b64_json === undefined ? 'url' : 'b64_json', 'prompt', 'resolution', 'is_image_safe', 'seed', 'style_type'].sort(),
    );
    expect(image.is_image_safe).toBe(true);
    expect(Number.isInteger(image.seed)).toBe(true);
    expect(typeof image.style_type).toBe('string');
  }
}

/** What each gateway is expected to produce; the sandbox keeps input sizes, Ideogram renders its own. */
const TARGETS = [
  { name: 'sandbox', gw: () => sandboxGw, provider: 'sandbox', simulated: 'true', remixSize: [300, 200], blendSize: [300, 200] },
  { name: 'ideogram', gw: () => ideogramGw, provider: 'ideogram', simulated: null, remixSize: [1024, 1024], blendSize: [1024, 1024] },
] as const;

describe.each(TARGETS)('imagegen2 on the $name channel', (target) => {
  it('remix: an image by URL, answered with a gateway media URL to a PNG of the expected size', async () => {
    const gw = target.gw();
    const response = await post(gw, '/imagegen2/remix', { image: `${imageServer.url}/red.png`, prompt: 'a red square at dusk', image_weight: 0.6, seed: 1234 });
    expect(response.status).toBe(200);
    expect(response.headers.get('x-gengate-provider')).toBe(target.provider);
    expect(response.headers.get('x-gengate-simulated')).toBe(target.simulated);
    const body = (await response.json()) as IdeogramAnswer;
    expectIdeogramShape(body, 1);
    const [image] = body.data;
    expect(image.prompt).toBe('a red square at dusk');
    expect(image.seed).toBe(1234);
    const png = await download(gw, image.url!);
    expect(png.format).toBe('png');
    expect([png.width, png.height]).toEqual(target.remixSize);
    expect(image.resolution).toBe(`${png.width}x${png.height}`);
  });

  it('remix: aspect_ratio 16:9 gives a 1344x768 picture, several when num_images asks', async () => {
    const gw = target.gw();
    const response = await post(gw, '/imagegen2/remix', {
      image: `data:image/png;base64,${redPng.toString('base64')}`,
      prompt: 'wide',
      aspect_ratio: '16:9',
      num_images: 2,
    });
    expect(response.status).toBe(200);
    const body = (await response.json()) as IdeogramAnswer;
    expectIdeogramShape(body, 2);
    expect(body.data[0].url).not.toBe(body.data[1].url);
    for (const image of body.data) {
      const png = await download(gw, image.url!);
      expect([png.width, png.height]).toEqual([1344, 768]);
      expect(image.resolution).toBe('1344x768');
    }
  });

  it('edit: base64 image and an Ideogram mask (black = edit), answered as b64_json; only the masked area changes', async () => {
    const gw = target.gw();
    const response = await post(gw, '/imagegen2/edit', {
      image: bluePng.toString('base64'),
      mask: mask.toString('base64'),
      prompt: 'paint the left side',
      response_format: 'b64_json',
    });
    expect(response.status).toBe(200);
    const body = (await response.json()) as IdeogramAnswer;
    expectIdeogramShape(body, 1);
    const png = await decode(Buffer.from(body.data[0].b64_json!, 'base64'));
    expect([png.width, png.height]).toEqual([64, 48]);
    expect(body.data[0].resolution).toBe('64x48');
    for (const [x, y] of [
      [20, 0],
      [40, 24],
      [63, 47],
    ])
      expect(png.pixel(x, y)).toEqual(BLUE);
    for (const [x, y] of [
      [2, 2],
      [8, 24],
      [13, 45],
    ])
      expect(png.pixel(x, y)).not.toEqual(BLUE);
  });

  it('remix-image: a URL and a data URL blended into one picture', async () => {
    const gw = target.gw();
    const response = await post(gw, '/imagegen2/remix-image', {
      images: [`${imageServer.url}/red.png`, `data:image/png;base64,${bluePng.toString('base64')}`],
      prompt: 'one picture from both',
    });
    expect(response.status).toBe(200);
    const body = (await response.json()) as IdeogramAnswer;
    expectIdeogramShape(body, 1);
    const png = await download(gw, body.data[0].url!);
    expect([png.width, png.height]).toEqual(target.blendSize);
  });

  it('refuses bad input with 400 {detail} naming the field, and a missing key with 401', async () => {
    const gw = target.gw();
    const image = bluePng.toString('base64');
    const cases: Array<[string, unknown, string]> = [
      ['/imagegen2/remix', { image }, 'prompt: is required'],
      ['/imagegen2/remix', { image, prompt: 'p', image_weight: 2 }, 'image_weight: must be ≤ 1, got 2'],
      ['/imagegen2/remix', { image: 'this is not base64!', prompt: 'p' }, 'image: invalid base64 data'],
      ['/imagegen2/edit', { image, prompt: 'p', mask: '' }, 'mask: the image is empty (no base64 data)'],
      ['/imagegen2/remix-image', { images: [image] }, 'images: a blend takes 2 to 5 images, got 1'],
    ];
    for (const [path, body, detail] of cases) {
      const response = await post(gw, path, body);
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual({ detail });
    }
    const anonymous = await post(gw, '/imagegen2/remix', { image, prompt: 'p' }, null);
    expect(anonymous.status).toBe(401);
    expect(Object.keys((await anonymous.json()) as object)).toEqual(['detail']);
  });
});

describe('imagegen2 through the ideogram channel: what reaches the upstream', () => {
  it('sends the remix as Ideogram 3.0 multipart with image_weight on its 1–100 scale', async () => {
    const before = upstream.requests.length;
    const response = await post(ideogramGw, '/imagegen2/remix', {
      image: `${imageServer.url}/red.png`,
      prompt: 'a red square at dusk',
      image_weight: 0.6,
      aspect_ratio: '4x3',
      rendering_speed: 'TURBO',
      style_type: 'DESIGN',
      magic_prompt: 'ON',
    });
    expect(response.status).toBe(200);
    const sent = upstream.requests.slice(before);
    expect(sent).toHaveLength(1);
    expect(sent[0].path).toBe('/v1/ideogram-v3/remix');
    expect(sent[0].headers['api-key']).toBe(FAKE_IDEOGRAM_KEY);
    expect(sent[0].fields).toEqual({
      prompt: ['a red square at dusk'],
      image_weight: ['60'],
      num_images: ['1'],
      rendering_speed: ['TURBO'],
      style_type: ['DESIGN'],
      magic_prompt: ['ON'],
      aspect_ratio: ['4x3'],
    });
    expect(sent[0].files.image[0]).toMatchObject({ width: 300, height: 200, type: 'image/png' });
    const body = (await response.json()) as IdeogramAnswer;
    // Magic Prompt rewrote the prompt upstream; the answer says what was used.
    expect(body.data[0]).toMatchObject({ prompt: 'a red square at dusk, highly detailed', resolution: '1152x864', style_type: 'DESIGN' });
  });

  it('sends the edit mask black-on-white at the image’s size; the fake paints exactly the black area', async () => {
    const before = upstream.requests.length;
    const smallMask = await leftBlackMask(32, 24, 8);
    const response = await post(ideogramGw, '/imagegen2/edit', {
      image: `${imageServer.url}/blue.png`,
      mask: smallMask.toString('base64'),
      prompt: 'paint',
      response_format: 'b64_json',
    });
    expect(response.status).toBe(200);
    const [sent] = upstream.requests.slice(before);
    expect(sent.path).toBe('/v1/ideogram-v3/edit');
    expect(sent.files.mask[0]).toMatchObject({ width: 64, height: 48, type: 'image/png' });
    const png = await decode(Buffer.from(((await response.json()) as IdeogramAnswer).data[0].b64_json!, 'base64'));
    expect(png.pixel(0, 0)).toEqual([...FAKE_EDIT_COLOR]);
    expect(png.pixel(15, 47)).toEqual([...FAKE_EDIT_COLOR]);
    expect(png.pixel(16, 0)).toEqual(BLUE);
  });

  it('blends through generate with every image as a style reference', async () => {
    const before = upstream.requests.length;
    const response = await post(ideogramGw, '/imagegen2/remix-image', {
      images: [`${imageServer.url}/red.png`, `${imageServer.url}/blue.png`, bluePng.toString('base64')],
    });
    expect(response.status).toBe(200);
    const [sent] = upstream.requests.slice(before);
    expect(sent.path).toBe('/v1/ideogram-v3/generate');
    expect(sent.fields.prompt).toEqual(['A blend of the reference images']);
    expect(sent.files.style_reference_images.map((f) => [f.width, f.height])).toEqual([
      [300, 200],
      [64, 48],
      [64, 48],
    ]);
  });

  it('answers the upstream’s safety refusal with 422 and its rate limit with 429', async () => {
    const image = bluePng.toString('base64');
    const refused = await post(ideogramGw, '/imagegen2/remix', { image, prompt: 'something unsafe' });
    expect(refused.status).toBe(422);
    expect(await refused.json()).toEqual({ detail: 'Prompt failed the safety check.' });
    const limited = await post(ideogramGw, '/imagegen2/remix', { image, prompt: 'fail-429' });
    expect(limited.status).toBe(429);
    expect(Object.keys((await limited.json()) as object)).toEqual(['detail']);
  });

  it('refuses client URLs to private addresses unless the gateway allows them', async () => {
    const strict = await startGateway({
      channels: [
        {
          name: 'ideogram-main',
          provider: 'ideogram',
          baseUrl: upstream.url,
          apiKey: FAKE_IDEOGRAM_KEY,
          models: ['imagegen2-*'],
          modelMap: { 'imagegen2-v3': 'V_3' },
        },
      ],
    });
    try {
      const response = await post(strict, '/imagegen2/remix', { image: `${imageServer.url}/red.png`, prompt: 'p' });
      expect(response.status).toBe(400);
      const body = (await response.json()) as { detail: string };
      expect(body.detail).toMatch(/^image: /);
    } finally {
      await strict.close();
    }
  });
});
