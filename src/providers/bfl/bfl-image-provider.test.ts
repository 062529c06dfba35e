import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeBflChannel, FAKE_BFL_API_KEY, startFakeBflUpstream, type FakeBflUpstream } from '../../../test/fakes/fake-bfl-upstream.js';
import { GatewayError } from '../../core/errors.js';
import type { ImageGenerateRequest } from '../../core/image.js';
import type { Attempt, ChannelConfig } from '../types.js';
import { bflDescriptor } from './index.js';
import { createProvider } from '../create-provider.js';

const provider = await createProvider(bflDescriptor);
const generate = provider.images!.generate!;

const ask = (prompt: string, extra: Partial<ImageGenerateRequest> = {}): ImageGenerateRequest => ({
  model: 'imagegen1-pro',
  prompt,
  n: 1,
  size: { width: 1024, height: 768 },
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

describe('bfl provider against the fake BFL API', () => {
  let upstream: FakeBflUpstream;
  let channel: ChannelConfig;
  const attempt = (upstreamModel = 'flux-pro', overrides: Partial<ChannelConfig> = {}, signal = new AbortController().signal): Attempt => ({
    channel: { ...channel, ...overrides },
    upstreamModel,
    signal,
    requestId: 'req-test',
  });
  const submits = () => upstream.requests.filter((request) => request.method === 'POST');

  beforeAll(async () => {
    upstream = await startFakeBflUpstream({ pendingPolls: 2 });
    channel = fakeBflChannel(upstream);
  });
  afterAll(() => upstream.close());

  it('declares image generation only', () => {
    expect(provider.name).toBe('bfl');
    expect([...provider.operations]).toEqual(['image.generate']);
    expect(provider.images?.edit).toBeUndefined();
  });

  it('submits a task, polls it until Ready and returns the sample URL', async () => {
    const before = upstream.requests.length;
    const result = await generate(ask('a lighthouse at dusk', { seed: 1234 }), attempt());
    const sent = upstream.requests.slice(before);

    expect(sent[0].method).toBe('POST');
    expect(sent[0].path).toBe('/v1/flux-pro');
    expect(sent[0].headers['x-key']).toBe(FAKE_BFL_API_KEY);
    expect(sent[0].body).toEqual({ prompt: 'a lighthouse at dusk', width: 1024, height: 768, seed: 1234, output_format: 'png' });
    // Pending, Pending, Ready.
    const polls = sent.filter((request) => request.path === '/v1/get_result');
    expect(polls).toHaveLength(3);
    expect(polls.every((poll) => poll.headers['x-key'] === FAKE_BFL_API_KEY)).toBe(true);

    expect(result.images).toHaveLength(1);
    const [image] = result.images;
    expect(image.seed).toBe(1234);
    expect(image.mediaType).toBe('image/png');
    expect(image.url).toMatch(new RegExp(`^${upstream.url}/samples/[^/]+/sample\\.png\\?`));
    expect(Math.abs(result.created - Date.now() / 1000)).toBeLessThan(5);
    expect(await download(image.url!)).toEqual({ format: 'png', width: 1024, height: 768 });
  });

  it('submits n tasks concurrently, each with the next seed', async () => {
    const before = submits().length;
    const result = await generate(ask('three boats', { n: 3, seed: 7, size: { width: 512, height: 512 } }), attempt('flux-dev'));
    const sent = submits().slice(before);
    expect(sent.map((request) => request.body?.seed).sort()).toEqual([7, 8, 9]);
    expect(result.images.map((image) => image.seed).sort()).toEqual([7, 8, 9]);
    expect(new Set(result.images.map((image) => image.url)).size).toBe(3);
    for (const image of result.images) expect(await download(image.url!)).toEqual({ format: 'png', width: 512, height: 512 });
  });

  it('rounds the size to multiples of 32 within 256–1440', async () => {
    const before = submits().length;
    const result = await generate(ask('a fox', { size: { width: 1000, height: 750 } }), attempt('flux-pro-1.1'));
    expect(submits()[before].body).toMatchObject({ width: 992, height: 736 });
    expect(await download(result.images[0].url!)).toEqual({ format: 'png', width: 992, height: 736 });

    const big = await generate(ask('a wide fox', { size: { width: 1792, height: 1024 } }), attempt('flux-pro-1.1'));
    expect(await download(big.images[0].url!)).toEqual({ format: 'png', width: 1440, height: 832 });
  });

  it('sends ultra an aspect ratio instead of a size', async () => {
    const before = submits().length;
    const result = await generate(ask('a panorama', { size: { width: 1792, height: 1024 } }), attempt('flux-pro-1.1-ultra'));
    expect(submits()[before].body).toEqual({ prompt: 'a panorama', aspect_ratio: '7:4', output_format: 'png' });
    const image = await download(result.images[0].url!);
    expect(image.format).toBe('png');
    expect(image.width! / image.height!).toBeCloseTo(7 / 4, 1);
  });

  it('asks for JPEG when the client does', async () => {
    const result = await generate(ask('a jpeg', { options: { outputFormat: 'jpeg' } }), attempt());
    expect(result.images[0].mediaType).toBe('image/jpeg');
    expect(await download(result.images[0].url!)).toEqual({ format: 'jpeg', width: 1024, height: 768 });
  });

  it('reports a moderated request as a content-policy 400', async () => {
    const error = await failure(generate(ask('moderate-request please'), attempt()));
    expect(error).toMatchObject({ kind: 'invalid_request', status: 400, code: 'content_policy_violation', retryable: false });
    expect(error.message).toContain('content policy');
    expect(error.message).toContain('Derivative Works');
  });

  it('reports moderated content as a content-policy 400', async () => {
    const error = await failure(generate(ask('moderate-content please'), attempt()));
    expect(error).toMatchObject({ kind: 'invalid_request', status: 400, code: 'content_policy_violation', retryable: false });
    expect(error.message).toContain('withheld');
  });

  it('reports Error and Task not found as retryable upstream errors', async () => {
    expect(await failure(generate(ask('fail-error'), attempt()))).toMatchObject({
      kind: 'upstream',
      retryable: true,
      message: 'BFL task failed (Error): Internal generation error',
    });
    expect(await failure(generate(ask('lost-task'), attempt()))).toMatchObject({
      kind: 'upstream',
      retryable: true,
      message: 'BFL no longer knows the task (Task not found)',
    });
  });

  it('maps submit errors: 429 rate limit, 402 credits, 422 validation', async () => {
    expect(await failure(generate(ask('fail-429'), attempt()))).toMatchObject({
      kind: 'rate_limit',
      status: 429,
      retryable: true,
      retryAfter: 2,
      upstreamStatus: 429,
    });
    const credits = await failure(generate(ask('x'), attempt('fail-402')));
    expect(credits).toMatchObject({ kind: 'upstream', retryable: true, upstreamStatus: 402 });
    expect(credits.message).toContain('out of credits');
    expect(await failure(generate(ask('fail-422'), attempt()))).toMatchObject({
      kind: 'invalid_request',
      status: 400,
      retryable: false,
      message: 'prompt: String should have at most 10000 characters',
    });
  });

  it('reports refused channel credentials as retryable', async () => {
    const error = await failure(generate(ask('a cat'), attempt('flux-pro', { apiKey: 'wrong' })));
    expect(error).toMatchObject({ kind: 'upstream', retryable: true, upstreamStatus: 403 });
    expect(error.message).toBe('upstream refused the channel credentials: Not authenticated - Invalid Authentication');
  });

  it('gives up with a retryable timeout when the task outlives the deadline', async () => {
    const started = Date.now();
    const error = await failure(generate(ask('slow'), attempt('flux-pro', { timeoutMs: 300 })));
    const elapsed = Date.now() - started;
    expect(error).toMatchObject({ kind: 'timeout', status: 504, retryable: true, message: 'BFL task did not finish within 300 ms' });
    expect(elapsed).toBeGreaterThanOrEqual(280);
    expect(elapsed).toBeLessThan(1_500);
  });

  it('stops polling as soon as the client goes away', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const started = Date.now();
    const error = await failure(generate(ask('slow'), attempt('flux-pro', {}, controller.signal)));
    expect(error).toMatchObject({ kind: 'upstream', code: 'client_closed', retryable: false });
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it('fails the whole request when its tasks fail', async () => {
    const error = await failure(generate(ask('moderate-request', { n: 2 }), attempt()));
    expect(error.code).toBe('content_policy_violation');
  });
});
