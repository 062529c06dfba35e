/**
 * Issue 23, finding 8: synchronous image results were fetched without the private-address
 * guard, so an upstream answering `http://127.0.0.1/…` made the gateway fetch an internal
 * resource and re-serve it as the client's image. A hostile OpenAI-images upstream answers with
 * the URL of an "internal" server on another loopback port: the gateway refuses it with a clear
 * 502 in OpenAI's shape and the internal server sees no request — directly or through a redirect
 * from the upstream's own origin — while the upstream's own files are still taken over, and
 * `media.allowPrivateUrls` (the setting task results use, off by default) lets it through.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningGateway, startGateway } from '../helpers/start-gateway.js';

// biome-ignore lint/suspicious/noExplicitAny: answers are read field by field, as a client would
type Answer = any;

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function close(server: Server | undefined): Promise<void> {
  return new Promise((resolve) => (server ? server.close(() => resolve()) : resolve()));
}

describe('finding 8: image URLs an upstream answers are fetched through the private-address guard', () => {
  let picture: Buffer;
  let internal: Server;
  let internalUrl: string;
  const internalPaths: string[] = [];
  let upstream: Server;
  let upstreamUrl: string;
  /** What the hostile upstream answers as the image's URL next. */
  let answerUrl = '';
  let guarded: RunningGateway;
  let allowing: RunningGateway;

  const channel = () => ({
    name: 'hostile-images',
    provider: 'openai',
    baseUrl: `${upstreamUrl}/v1`,
    apiKey: 'sk-hostile',
    models: ['textmodel-b-image-1'],
    modelMap: { 'textmodel-b-image-1': 'dall-e-2' },
  });

  beforeAll(async () => {
    picture = await sharp({ create: { width: 32, height: 32, channels: 3, background: '#c00' } })
      .png()
      .toBuffer();
    internal = createServer((req, res) => {
      internalPaths.push(req.url ?? '');
      res.writeHead(200, { 'content-type': 'image/png' });
      res.end(picture);
    });
    internalUrl = await listen(internal);
    upstream = createServer((req, res) => {
      if (req.url === '/files/own.png') {
        res.writeHead(200, { 'content-type': 'image/png' });
        return res.end(picture);
      }
      if (req.url === '/files/elsewhere') {
        res.writeHead(302, { location: `${internalUrl}/via-redirect.png` });
        return res.end();
      }
      req.resume();
      req.on('end', () => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ created: 1_713_833_628, data: [{ url: answerUrl }] }));
      });
    });
    upstreamUrl = await listen(upstream);
    [guarded, allowing] = await Promise.all([
      startGateway({ channels: [channel()] }),
      startGateway({ channels: [channel()], media: { allowPrivateUrls: true } }),
    ]);
  });
  afterAll(async () => {
    await Promise.all([guarded?.close(), allowing?.close()]);
    await Promise.all([close(internal), close(upstream)]);
  });

  async function generate(gw: RunningGateway, responseFormat: 'url' | 'b64_json'): Promise<{ status: number; json: Answer }> {
    const response = await fetch(`${gw.url}/v1/images/generations`, {
      method: 'POST',
      headers: { authorization: `Bearer ${gw.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'textmodel-b-image-1', prompt: 'x', size: '256x256', response_format: responseFormat }),
    });
    return { status: response.status, json: await response.json() };
  }

  it.each(['url', 'b64_json'] as const)(
    'refuses an upstream image URL on another loopback address (%s): 502, and the internal server sees nothing',
    async (format) => {
      answerUrl = `${internalUrl}/secret.png`;
      internalPaths.length = 0;
      const answer = await generate(guarded, format);
      expect(answer.status).toBe(502);
      expect(answer.json).toEqual({
        error: {
          message: expect.stringContaining('private or loopback address, which the gateway does not fetch'),
          type: expect.any(String),
          param: null,
          code: 'upstream_url_refused',
        },
      });
      expect(internalPaths).toEqual([]);
    },
  );

  it("takes over the upstream's own files, but not a redirect from them to another private address", async () => {
    answerUrl = `${upstreamUrl}/files/own.png`;
    const own = await generate(guarded, 'b64_json');
    expect(own.status).toBe(200);
    expect(Buffer.from(own.json.data[0].b64_json, 'base64').equals(picture)).toBe(true);

    answerUrl = `${upstreamUrl}/files/elsewhere`;
    internalPaths.length = 0;
    const redirected = await generate(guarded, 'url');
    expect(redirected.status).toBe(502);
    expect(internalPaths).toEqual([]);
  });

  it('fetches it with media.allowPrivateUrls on (the test allowance, off by default)', async () => {
    expect(guarded.gateway.config.media.allowPrivateUrls).toBe(false);
    answerUrl = `${internalUrl}/allowed.png`;
    internalPaths.length = 0;
    const answer = await generate(allowing, 'url');
    expect(answer.status).toBe(200);
    expect(internalPaths).toEqual(['/allowed.png']);
    const media = await fetch(answer.json.data[0].url);
    expect(Buffer.from(await media.arrayBuffer()).equals(picture)).toBe(true);
  });
});
