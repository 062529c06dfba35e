/**
 * `POST /v1/images/generations` end to end through a real gateway, with the `bfl` and
 * `replicate` channels pointing at the fake upstreams: URL answers served from the gateway's
 * media store, base64 answers, failover between providers, and moderation as a 400.
 */
import OpenAI from 'openai';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAKE_BFL_API_KEY, startFakeBflUpstream, type FakeBflUpstream } from './fakes/fake-bfl-upstream.js';
import { FAKE_REPLICATE_TOKEN, startFakeReplicateUpstream, type FakeReplicateUpstream } from './fakes/fake-replicate-upstream.js';
import { startGateway, type RunningGateway } from './helpers/start-gateway.js';

interface ImagesBody {
  created: number;
  data: Array<{ url?: string; b64_json?: string; revised_prompt?: string }>;
}

async function decode(bytes: Uint8Array): Promise<{ format?: string; width?: number; height?: number }> {
  const { format, width, height } = await sharp(bytes).metadata();
  return { format, width, height };
}

describe('image generation through bfl and replicate channels', () => {
  let bfl: FakeBflUpstream;
  let replicate: FakeReplicateUpstream;
  let gw: RunningGateway;

  const generate = (body: Record<string, unknown>) =>
    fetch(`${gw.url}/v1/images/generations`, {
      method: 'POST',
      headers: { authorization: `Bearer ${gw.key}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });

  beforeAll(async () => {
    bfl = await startFakeBflUpstream({ pendingPolls: 2 });
    replicate = await startFakeReplicateUpstream({ processingMs: 50 });
    gw = await startGateway({
      media: { allowPrivateUrls: true },
      channels: [
        {
          name: 'bfl-main',
          provider: 'bfl',
          baseUrl: bfl.url,
          apiKey: FAKE_BFL_API_KEY,
          models: ['imagegen1-pro'],
          modelMap: { 'imagegen1-pro': 'flux-pro' },
          options: { pollIntervalMs: 20 },
        },
        {
          // Out of credits: every task it submits answers 402.
          name: 'bfl-broke',
          provider: 'bfl',
          baseUrl: bfl.url,
          apiKey: FAKE_BFL_API_KEY,
          models: ['imagegen1-dev'],
          modelMap: { 'imagegen1-dev': 'fail-402' },
          priority: 10,
          options: { pollIntervalMs: 20 },
        },
        {
          name: 'replicate-main',
          provider: 'replicate',
          baseUrl: replicate.url,
          apiKey: FAKE_REPLICATE_TOKEN,
          models: ['imagegen1-schnell', 'imagegen1-dev'],
          modelMap: { 'imagegen1-schnell': 'black-forest-labs/flux-schnell', 'imagegen1-dev': 'black-forest-labs/flux-dev' },
          options: { pollIntervalMs: 20 },
        },
      ],
    });
  });

  afterAll(async () => {
    await gw?.close();
    await bfl?.close();
    await replicate?.close();
  });

  it('imagegen1-pro through BFL: a gateway media URL serving the PNG of the asked size', async () => {
    const before = bfl.requests.length;
    const response = await generate({ model: 'imagegen1-pro', prompt: 'a lighthouse at dusk', size: '1024x768', response_format: 'url' });
    expect(response.status).toBe(200);
    expect(response.headers.get('x-gengate-provider')).toBe('bfl');
    expect(response.headers.get('x-gengate-channel')).toBe('bfl-main');
    const body = (await response.json()) as ImagesBody;
    expect(Math.abs(body.created - Date.now() / 1000)).toBeLessThan(10);
    expect(body.data).toHaveLength(1);
    const { url } = body.data[0];
    expect(url).toMatch(new RegExp(`^${gw.url}/media/[A-Za-z0-9_-]{20,}`));
    expect(body.data[0].b64_json).toBeUndefined();

    const submit = bfl.requests.slice(before).find((request) => request.method === 'POST')!;
    expect(submit.path).toBe('/v1/flux-pro');
    expect(submit.body).toEqual({ prompt: 'a lighthouse at dusk', width: 1024, height: 768, output_format: 'png' });

    // The link is the gateway's own, not the expiring upstream sample.
    const image = await fetch(url!);
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/png');
    expect(await decode(new Uint8Array(await image.arrayBuffer()))).toEqual({ format: 'png', width: 1024, height: 768 });
  });

  it('rounds a size BFL cannot make to the nearest one it can', async () => {
    const response = await generate({ model: 'imagegen1-pro', prompt: 'an odd size', size: '1000x750' });
    expect(response.status).toBe(200);
    const body = (await response.json()) as ImagesBody;
    const image = await fetch(body.data[0].url!);
    expect(await decode(new Uint8Array(await image.arrayBuffer()))).toEqual({ format: 'png', width: 992, height: 736 });
  });

  it('imagegen1-schnell through Replicate: b64_json images of the asked size', async () => {
    const response = await generate({ model: 'imagegen1-schnell', prompt: 'two red kites', n: 2, size: '1024x1024', response_format: 'b64_json' });
    expect(response.status).toBe(200);
    expect(response.headers.get('x-gengate-channel')).toBe('replicate-main');
    const body = (await response.json()) as ImagesBody;
    expect(body.data).toHaveLength(2);
    for (const item of body.data) {
      expect(item.url).toBeUndefined();
      expect(await decode(Buffer.from(item.b64_json!, 'base64'))).toEqual({ format: 'png', width: 1024, height: 1024 });
    }
    const create = replicate.requests.filter((request) => request.path === '/v1/models/black-forest-labs/flux-schnell/predictions').at(-1)!;
    expect(create.body?.input).toMatchObject({ prompt: 'two red kites', num_outputs: 2, aspect_ratio: '1:1', output_format: 'png' });
  });

  it('serves the openai SDK images.generate', async () => {
    const client = new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: gw.key, maxRetries: 0 });
    const result = await client.images.generate({ model: 'imagegen1-schnell', prompt: 'a kite over the sea', size: '1024x1024', response_format: 'url' });
    expect(result.data).toHaveLength(1);
    const image = await fetch(result.data![0].url!);
    expect(await decode(new Uint8Array(await image.arrayBuffer()))).toEqual({ format: 'png', width: 1024, height: 1024 });
  });

  it('fails over from a BFL channel without credits to Replicate', async () => {
    const bflBefore = bfl.requests.length;
    const response = await generate({ model: 'imagegen1-dev', prompt: 'a fox in snow', size: '1024x768', response_format: 'b64_json' });
    expect(response.status).toBe(200);
    expect(response.headers.get('x-gengate-provider')).toBe('replicate');
    expect(response.headers.get('x-gengate-channel')).toBe('replicate-main');
    // The broke BFL channel was tried first.
    expect(bfl.requests.slice(bflBefore).map((request) => request.path)).toEqual(['/v1/fail-402']);
    const body = (await response.json()) as ImagesBody;
    // flux-dev makes 4:3 at 1152x896.
    expect(await decode(Buffer.from(body.data[0].b64_json!, 'base64'))).toEqual({ format: 'png', width: 1152, height: 896 });
  });

  it('answers a BFL moderation with a 400 in the OpenAI error shape', async () => {
    const response = await generate({ model: 'imagegen1-pro', prompt: 'moderate-request: something forbidden' });
    expect(response.status).toBe(400);
    const body = (await response.json()) as { error: Record<string, unknown> };
    expect(body.error.type).toBe('invalid_request_error');
    expect(body.error.code).toBe('content_policy_violation');
    expect(body.error.param).toBeNull();
    expect(body.error.message).toBe(
      "The prompt was rejected by the image provider's content policy (moderated request) (Moderation Reasons: Derivative Works).",
    );
  });

  it('answers a Replicate NSFW failure with a 400 the openai SDK raises as BadRequestError', async () => {
    const client = new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: gw.key, maxRetries: 0 });
    const error = await client.images.generate({ model: 'imagegen1-schnell', prompt: 'nsfw' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect((error as InstanceType<typeof OpenAI.BadRequestError>).code).toBe('content_policy_violation');
  });
});
