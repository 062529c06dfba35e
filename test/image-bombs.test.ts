/**
 * Issue 8, finding 3: decompression bombs through a real gateway. A few-kilobyte PNG declaring
 * 12000×12000 pixels (the reported bomb took RSS to 3 GB) must be refused with a 400 naming the
 * field, before sharp is ever asked to open it. sharp is observed through the gateway's one
 * loader of it; a normal image is processed in the same gateway, proving the observation works.
 * The gateway does not decode chat image parts (they go to the upstream as given), so chat has
 * no case here.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { blackPng, gifHeader, jpegHeader, pngHeader, webpVp8xHeader } from './helpers/image-headers.js';
import { startGateway, type RunningGateway } from './helpers/start-gateway.js';

const sharpCalls = vi.hoisted(() => ({ count: 0 }));

vi.mock('../src/media/load-sharp.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../src/media/load-sharp.js')>();
  return {
    loadSharp: async () => {
      const sharp = await real.loadSharp();
      return new Proxy(sharp, {
        apply(target, thisArg, args) {
          sharpCalls.count++;
          return Reflect.apply(target, thisArg, args);
        },
      });
    },
  };
});

let gw: RunningGateway;
const bomb = blackPng(12000, 12000);

beforeAll(async () => {
  gw = await startGateway();
});
afterAll(() => gw.close());
beforeEach(() => {
  sharpCalls.count = 0;
});

async function postJson(path: string, body: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${gw.url}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${gw.key}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe('finding 3: image bombs are refused from their headers', () => {
  it('finding 3: a 12000×12000 PNG to /imagegen2/remix is refused before decoding', async () => {
    expect(bomb.length).toBeLessThan(100_000);
    const rssBefore = process.memoryUsage().rss;
    const answers = await Promise.all(
      Array.from({ length: 3 }, () => postJson('/imagegen2/remix', { image: bomb.toString('base64'), prompt: 'a bigger picture', num_images: 4 })),
    );
    for (const answer of answers) {
      expect(answer.status).toBe(400);
      expect(answer.body.detail).toBe('image: the image is 12000×12000 pixels, more than the limit of 50000000 pixels (50 megapixels); scale it down');
    }
    expect(sharpCalls.count).toBe(0);
    expect(process.memoryUsage().rss - rssBefore).toBeLessThan(200 * 1024 * 1024);
  });

  it('finding 3: huge JPEG, WebP and GIF headers as data URLs are refused the same way', async () => {
    for (const [type, bytes] of [
      ['jpeg', jpegHeader(9000, 9000)],
      ['webp', webpVp8xHeader(9000, 9000)],
      ['gif', gifHeader({ width: 9000, height: 9000 })],
    ] as const) {
      const answer = await postJson('/imagegen2/remix', { image: `data:image/${type};base64,${bytes.toString('base64')}`, prompt: 'p' });
      expect(answer.status, type).toBe(400);
      expect(answer.body.detail, type).toContain('image: the image is 9000×9000 pixels');
    }
    expect(sharpCalls.count).toBe(0);
  });

  it('finding 3: five 45-megapixel images to /imagegen2/remix-image exceed the request total, naming images[4]', async () => {
    const photo = jpegHeader(7500, 6000).toString('base64');
    const answer = await postJson('/imagegen2/remix-image', { images: [photo, photo, photo, photo, photo] });
    expect(answer.status).toBe(400);
    expect(answer.body.detail).toContain("images[4]: the request's images add up to more than 200 megapixels");
    expect(sharpCalls.count).toBe(0);
  });

  it('finding 3: a 12000×12000 PNG uploaded to /v1/images/edits (multipart) is refused before decoding', async () => {
    const form = new FormData();
    form.set('model', 'textmodel-b-image-1');
    form.set('prompt', 'make it bigger');
    form.set('n', '4');
    form.append('image[]', new Blob([pngHeader(64, 64)], { type: 'image/png' }), 'small.png');
    form.append('image[]', new Blob([bomb], { type: 'image/png' }), 'bomb.png');
    const response = await fetch(`${gw.url}/v1/images/edits`, { method: 'POST', headers: { authorization: `Bearer ${gw.key}` }, body: form });
    expect(response.status).toBe(400);
    const { error } = (await response.json()) as { error: { type: string; param: string; message: string } };
    expect(error).toMatchObject({ type: 'invalid_request_error', param: 'image[1]' });
    expect(error.message).toContain('image[1]: the image is 12000×12000 pixels');
    expect(sharpCalls.count).toBe(0);
  });

  it('finding 3: a bomb as the mask of a JSON edit is refused before the mask is decoded', async () => {
    const answer = await postJson('/v1/images/edits', {
      model: 'textmodel-b-image-1',
      prompt: 'p',
      images: [{ image_url: `data:image/png;base64,${pngHeader(64, 64).toString('base64')}` }],
      mask: { image_url: `data:image/png;base64,${bomb.toString('base64')}` },
    });
    expect(answer.status).toBe(400);
    expect(answer.body.error).toMatchObject({ param: 'mask.image_url' });
    expect(sharpCalls.count).toBe(0);
  });

  it('still processes a normal image, through sharp (the observation above can see decodes)', async () => {
    const small = blackPng(120, 80).toString('base64');
    const answer = await postJson('/imagegen2/remix', { image: small, prompt: 'p', response_format: 'b64_json' });
    expect(answer.status).toBe(200);
    expect((answer.body.data as Array<{ resolution: string }>)[0].resolution).toBe('120x80');
    expect(sharpCalls.count).toBeGreaterThan(0);
  });
});

describe('finding 3: the cap follows media.maxImagePixels', () => {
  let strict: RunningGateway;
  beforeAll(async () => {
    strict = await startGateway({ media: { maxImagePixels: 10_000 } });
  });
  afterAll(() => strict.close());

  it('refuses an image over a configured cap and admits one within it', async () => {
    const post = (image: Buffer) =>
      fetch(`${strict.url}/imagegen2/remix`, {
        method: 'POST',
        headers: { authorization: `Bearer ${strict.key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ image: image.toString('base64'), prompt: 'p', response_format: 'b64_json' }),
      });
    const refused = await post(blackPng(101, 100));
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { detail: string }).detail).toContain('more than the limit of 10000 pixels');
    expect((await post(blackPng(100, 100))).status).toBe(200);
  });
});
