import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  fakeReplicateChannel,
  FAKE_REPLICATE_TOKEN,
  FAKE_SCHNELL_VERSION,
  startFakeReplicateUpstream,
  type FakeReplicateUpstream,
} from '../../../test/fakes/fake-replicate-upstream.js';
import { GatewayError } from '../../core/errors.js';
import type { ImageGenerateRequest } from '../../core/image.js';
import type { Attempt, ChannelConfig } from '../types.js';
import { replicateDescriptor } from './index.js';
import { createProvider } from '../create-provider.js';

const provider = await createProvider(replicateDescriptor);
const generate = provider.images!.generate!;
const SCHNELL = 'black-forest-labs/flux-schnell';

const ask = (prompt: string, extra: Partial<ImageGenerateRequest> = {}): ImageGenerateRequest => ({
  model: 'imagegen1-schnell',
  prompt,
  n: 1,
  size: { width: 1024, height: 1024 },
  responseFormat: 'url',
  ...extra,
});

async function failure(promise: Promise<unknown>): Promise<GatewayError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof GatewayError)) throw new Error(`expected a GatewayError, got ${String(error)}`);
  return error;
}

async function download(url: string): Promise<{ format?: string; width?: number; height?: number }> {
  const response = await fetch(url);
  expect(response.status).toBe(200);
  const { format, width, height } = await sharp(Buffer.from(await response.arrayBuffer())).metadata();
  return { format, width, height };
}

describe('replicate provider against the fake Replicate API', () => {
  let upstream: FakeReplicateUpstream;
  let slowUpstream: FakeReplicateUpstream;
  const attempt = (
    target: FakeReplicateUpstream,
    upstreamModel = SCHNELL,
    overrides: Partial<ChannelConfig> = {},
    signal = new AbortController().signal,
  ): Attempt => ({
    channel: fakeReplicateChannel(target, overrides),
    upstreamModel,
    signal,
    requestId: 'req-test',
  });
  const creates = (target: FakeReplicateUpstream) => target.requests.filter((request) => request.method === 'POST' && request.path.endsWith('/predictions'));

  beforeAll(async () => {
    upstream = await startFakeReplicateUpstream({ processingMs: 50 });
    slowUpstream = await startFakeReplicateUpstream({ processingMs: 300 });
  });
  afterAll(async () => {
    await upstream.close();
    await slowUpstream.close();
  });

  it('declares image generation only', () => {
    expect(provider.name).toBe('replicate');
    expect([...provider.operations]).toEqual(['image.generate']);
  });

  it('creates a prediction with Prefer: wait and takes the answer it holds', async () => {
    const before = upstream.requests.length;
    const result = await generate(ask('a red kite'), attempt(upstream, SCHNELL, { timeoutMs: 5_200 }));
    const sent = upstream.requests.slice(before);

    // The wait covers the fake's 50 ms: one request, no polling.
    expect(sent).toHaveLength(1);
    expect(sent[0].path).toBe('/v1/models/black-forest-labs/flux-schnell/predictions');
    expect(sent[0].headers.authorization).toBe(`Bearer ${FAKE_REPLICATE_TOKEN}`);
    // 5.2 s channel timeout: whole seconds ending at least 1 s before it.
    expect(sent[0].headers.prefer).toBe('wait=4');
    expect(sent[0].body).toEqual({
      input: { prompt: 'a red kite', width: 1024, height: 1024, aspect_ratio: '1:1', num_outputs: 1, output_format: 'png' },
    });

    expect(result.images).toHaveLength(1);
    const [image] = result.images;
    const prediction = [...upstream.predictions.values()].at(-1)!;
    expect(image.url).toBe(`${upstream.url}/files/${prediction.id}/out-0.png`);
    expect(image.mediaType).toBe('image/png');
    expect(image.seed).toBe(prediction.seed);
    expect(await download(image.url!)).toEqual({ format: 'png', width: 1024, height: 1024 });
  });

  it('polls urls.get when the prediction is still running', async () => {
    // 1.5 s timeout: too short to ask for a wait, so the prediction comes back `starting`.
    const before = slowUpstream.requests.length;
    const result = await generate(ask('a patient kite', { size: { width: 1024, height: 768 } }), attempt(slowUpstream, SCHNELL, { timeoutMs: 1_500 }));
    const sent = slowUpstream.requests.slice(before);
    expect(sent[0].headers.prefer).toBeUndefined();
    const prediction = [...slowUpstream.predictions.values()].at(-1)!;
    const polls = sent.filter((request) => request.method === 'GET' && request.path === `/v1/predictions/${prediction.id}`);
    expect(polls.length).toBeGreaterThanOrEqual(2);
    expect(polls.every((poll) => poll.headers.authorization === `Bearer ${FAKE_REPLICATE_TOKEN}`)).toBe(true);
    expect(await download(result.images[0].url!)).toEqual({ format: 'png', width: 1152, height: 896 });
  });

  it('spreads n over predictions of at most 4, seeds following on', async () => {
    const before = creates(upstream).length;
    const result = await generate(ask('six kites', { n: 6, seed: 10 }), attempt(upstream));
    const inputs = creates(upstream)
      .slice(before)
      .map((request) => request.body?.input as Record<string, unknown>)
      .sort((a, b) => (a.seed as number) - (b.seed as number));
    expect(inputs.map((input) => [input.num_outputs, input.seed])).toEqual([
      [4, 10],
      [2, 14],
    ]);
    expect(result.images).toHaveLength(6);
    expect(new Set(result.images.map((image) => image.url)).size).toBe(6);
    for (const image of result.images) expect(await download(image.url!)).toEqual({ format: 'png', width: 1024, height: 1024 });
  });

  it('runs one prediction per image for Flux Pro, with a custom size rounded to 32', async () => {
    const before = creates(upstream).length;
    const result = await generate(ask('two pro kites', { n: 2, size: { width: 1000, height: 750 } }), attempt(upstream, 'black-forest-labs/flux-1.1-pro'));
    const sent = creates(upstream).slice(before);
    expect(sent).toHaveLength(2);
    for (const request of sent) {
      expect(request.path).toBe('/v1/models/black-forest-labs/flux-1.1-pro/predictions');
      expect(request.body?.input).toMatchObject({ aspect_ratio: 'custom', width: 992, height: 736, num_outputs: 1 });
    }
    expect(result.images).toHaveLength(2);
    for (const image of result.images) expect(await download(image.url!)).toEqual({ format: 'png', width: 992, height: 736 });
  });

  it('makes up for a model that ignores num_outputs with more predictions', async () => {
    const before = creates(upstream).length;
    const result = await generate(ask('ultra kites', { n: 3, size: { width: 1344, height: 768 } }), attempt(upstream, 'black-forest-labs/flux-1.1-pro-ultra'));
    const counts = creates(upstream)
      .slice(before)
      .map((request) => (request.body!.input as Record<string, unknown>).num_outputs);
    expect(counts).toEqual([3, 1, 1]);
    expect(result.images).toHaveLength(3);
    for (const image of result.images) expect(await download(image.url!)).toEqual({ format: 'png', width: 1344, height: 768 });
  });

  it('creates a pinned version through /v1/predictions', async () => {
    const before = creates(upstream).length;
    const result = await generate(ask('a versioned kite'), attempt(upstream, `black-forest-labs/flux-schnell:${FAKE_SCHNELL_VERSION}`));
    const [sent] = creates(upstream).slice(before);
    expect(sent.path).toBe('/v1/predictions');
    expect(sent.body).toMatchObject({ version: FAKE_SCHNELL_VERSION, input: { prompt: 'a versioned kite' } });
    expect(await download(result.images[0].url!)).toEqual({ format: 'png', width: 1024, height: 1024 });
  });

  it('reports an NSFW failure as a content-policy 400', async () => {
    const error = await failure(generate(ask('nsfw'), attempt(upstream)));
    expect(error).toMatchObject({ kind: 'invalid_request', status: 400, code: 'content_policy_violation', retryable: false });
    expect(error.message).toBe(
      'The image provider refused the request under its content policy: NSFW content detected. Try running it again, or try a different prompt.',
    );
  });

  it('reports a model failure as a retryable upstream error with its text', async () => {
    const error = await failure(generate(ask('fail-model'), attempt(upstream)));
    expect(error).toMatchObject({ kind: 'upstream', status: 502, retryable: true });
    expect(error.message).toBe('Replicate prediction failed: Prediction failed: CUDA error: out of memory (the model crashed)');
  });

  it('maps create errors: 429, 402, 422, wrong token', async () => {
    expect(await failure(generate(ask('fail-429'), attempt(upstream)))).toMatchObject({
      kind: 'rate_limit',
      retryable: true,
      retryAfter: 1,
      upstreamStatus: 429,
    });
    expect(await failure(generate(ask('x'), attempt(upstream, 'fake/fail-402')))).toMatchObject({ kind: 'upstream', retryable: true, upstreamStatus: 402 });
    expect(await failure(generate(ask('fail-422'), attempt(upstream)))).toMatchObject({
      kind: 'invalid_request',
      status: 400,
      retryable: false,
      message: 'Input validation failed: input.prompt: String length must be less than or equal to 10000',
    });
    expect(await failure(generate(ask('x', { n: 5 }), attempt(upstream, 'black-forest-labs/flux-dev', { apiKey: 'r8_wrong' })))).toMatchObject({
      kind: 'upstream',
      retryable: true,
      upstreamStatus: 401,
    });
  });

  it('cancels the prediction and times out when it outlives the deadline', async () => {
    const started = Date.now();
    const error = await failure(generate(ask('slow'), attempt(upstream, SCHNELL, { timeoutMs: 400 })));
    expect(error).toMatchObject({ kind: 'timeout', status: 504, retryable: true, message: 'Replicate prediction did not finish within 400 ms' });
    expect(Date.now() - started).toBeLessThan(1_500);
    const prediction = [...upstream.predictions.values()].at(-1)!;
    expect(upstream.canceled).toContain(prediction.id);
    const cancel = upstream.requests.find((request) => request.path === `/v1/predictions/${prediction.id}/cancel`)!;
    expect(cancel.method).toBe('POST');
    expect(cancel.headers.authorization).toBe(`Bearer ${FAKE_REPLICATE_TOKEN}`);
  });

  it('holds the create answer no longer than the deadline allows, then cancels', async () => {
    // 2.3 s timeout → Prefer: wait=1 (2 s would end too close to the deadline); the held answer comes back `processing`, polls run out.
    const error = await failure(generate(ask('slow held'), attempt(upstream, SCHNELL, { timeoutMs: 2_300 })));
    expect(error.kind).toBe('timeout');
    const prediction = [...upstream.predictions.values()].at(-1)!;
    const create = upstream.requests.find((request) => request.body && (request.body.input as Record<string, unknown> | undefined)?.prompt === 'slow held')!;
    expect(create.headers.prefer).toBe('wait=1');
    expect(upstream.canceled).toContain(prediction.id);
  });

  it('cancels the prediction when the client goes away', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 150);
    const error = await failure(generate(ask('slow and abandoned'), attempt(upstream, SCHNELL, { timeoutMs: 1_500 }, controller.signal)));
    expect(error).toMatchObject({ kind: 'upstream', code: 'client_closed', retryable: false });
    const prediction = [...upstream.predictions.values()].at(-1)!;
    expect(upstream.canceled).toContain(prediction.id);
  });
});
