/**
 * The Luma task provider against the fake Dream Machine API over HTTP: what a submit sends and
 * refuses, how polls follow a generation through its states on the fake's clock, the errors
 * the engine must tell apart (retryable or not, rate limits, lost answers), cancel, callbacks.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GatewayError } from '../src/core/errors.js';
import type { TaskRequest } from '../src/core/task.js';
import { lumaDescriptor } from '../src/providers/luma/index.js';
import { createProvider } from '../src/providers/create-provider.js';
import type { ChannelConfig, TaskPollContext, TaskSubmission, TaskSubmitAttempt, TaskTarget } from '../src/providers/types.js';
import { closeServer, readBodyBytes } from './fakes/fake-http.js';
import { FAKE_LUMA_KEY, type FakeLumaUpstream, fakeLumaChannel, startFakeLumaUpstream } from './fakes/fake-luma-upstream.js';

const tasks = (await createProvider(lumaDescriptor)).tasks!;
const png = { data: new Uint8Array([0x89, 0x50, 0x4e, 0x47]), mediaType: 'image/png' };

async function failure(promise: Promise<unknown>): Promise<GatewayError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof GatewayError)) throw new Error(`expected a GatewayError, got ${String(error)}`);
  return error;
}

describe('luma task provider against the fake Dream Machine API', () => {
  let upstream: FakeLumaUpstream;
  let receiver: Server;
  let receiverUrl: string;
  const received: string[] = [];

  const channel = (overrides: Partial<ChannelConfig> = {}) => fakeLumaChannel(upstream, overrides);
  const attempt = (target = channel(), callbackUrl?: string): TaskSubmitAttempt => ({
    channel: target,
    upstreamModel: 'ray-2',
    signal: new AbortController().signal,
    requestId: 'req-luma',
    taskId: 'task_luma',
    callbackUrl,
    loadMedia: () => Promise.reject(new Error('not used')),
    storeMedia: () => Promise.reject(new Error('not used')),
  });
  const ask = (extra: Partial<TaskRequest> = {}): TaskRequest => ({ model: 'videogen3-ray-2', prompt: 'a lighthouse in a storm', ...extra });
  const targetOf = (submission: TaskSubmission, request: TaskRequest): TaskTarget => ({
    taskId: 'task_luma',
    operation: 'video.generate',
    upstreamModel: 'ray-2',
    upstreamId: submission.upstreamId,
    upstreamData: submission.upstreamData,
    request,
    createdAt: Date.now(),
  });
  const context = (target = channel()): TaskPollContext => ({ channel: target, signal: new AbortController().signal });
  const creates = () => upstream.requests.filter((r) => r.method === 'POST' && r.path === '/dream-machine/v1/generations/video');

  beforeAll(async () => {
    upstream = await startFakeLumaUpstream({ queuedMs: 5_000, processingMs: 60_000 });
    receiver = createServer((req, res) => {
      void readBodyBytes(req).then((body) => {
        received.push(body.toString('utf8'));
        res.writeHead(200).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await upstream.flushCallbacks();
    await upstream.close();
    await closeServer(receiver);
  });

  it('describes a video-only provider with the videogen3 preset', () => {
    expect([...tasks.operations]).toEqual(['video.generate']);
    expect(lumaDescriptor.envPreset).toMatchObject({ keyVar: 'LUMA_API_KEY', modelMap: { 'videogen3-ray-2': 'ray-2' } });
    expect(tasks.pollPolicy(channel())).toEqual({ firstDelayMs: 3_000, factor: 1.5, maxDelayMs: 20_000, deadlineMs: 3_600_000, maxBatch: 1 });
  });

  it('creates the generation with Luma’s fields and answers its id and queued state', async () => {
    const before = upstream.requests.length;
    const submission = await tasks.submit(
      'video.generate',
      ask({ seconds: 9, resolution: '1080p', aspectRatio: '9:16', images: [{ ...png, sourceUrl: 'https://img.example/first.png' }] }),
      attempt(),
    );
    const sent = upstream.requests.slice(before);
    expect(sent).toHaveLength(1);
    expect(sent[0].headers.authorization).toBe(`Bearer ${FAKE_LUMA_KEY}`);
    expect(sent[0].path).toBe('/dream-machine/v1/generations/video');
    expect(sent[0].body).toEqual({
      prompt: 'a lighthouse in a storm',
      model: 'ray-2',
      duration: '9s',
      resolution: '1080p',
      aspect_ratio: '9:16',
      keyframes: { frame0: { type: 'image', url: 'https://img.example/first.png' } },
    });
    expect(upstream.generations.has(submission.upstreamId)).toBe(true);
    expect(submission.observation).toEqual({ status: 'submitted', vendorStatus: 'queued' });
  });

  it('takes a base URL that already ends with /dream-machine/v1', async () => {
    await tasks.submit('video.generate', ask(), attempt(channel({ baseUrl: `${upstream.url}/dream-machine/v1/` })));
    expect(creates().at(-1)!.body).toMatchObject({ duration: '5s' });
  });

  it('refuses what Luma cannot express, naming the field, without calling Luma', async () => {
    const before = upstream.requests.length;
    const cases: Array<[Partial<TaskRequest>, string]> = [
      [{ seconds: 10 }, 'seconds'],
      [{ resolution: '480p' }, 'resolution'],
      [{ aspectRatio: '2:1' }, 'aspectRatio'],
      [{ seed: 7 }, 'seed'],
      [{ images: [png] }, 'images'],
      [{ images: [{ ...png, sourceUrl: 'https://img.example/a.png' }], imageRoles: ['reference_image'] }, 'images'],
      [{ prompt: '  ' }, 'prompt'],
    ];
    for (const [extra, param] of cases) {
      const error = await failure(tasks.submit('video.generate', ask(extra), attempt()));
      expect(error).toMatchObject({ kind: 'invalid_request', param });
    }
    const noUrl = await failure(tasks.submit('video.generate', ask({ images: [png] }), attempt()));
    expect(noUrl.message).toMatch(/by URL only/);
    expect(upstream.requests.length).toBe(before);
  });

  it('follows a generation from queued through dreaming to its video, which the fake serves', async () => {
    const request = ask();
    const submission = await tasks.submit('video.generate', request, attempt());
    const target = targetOf(submission, request);
    expect(await tasks.poll(target, context())).toEqual({ status: 'submitted', vendorStatus: 'queued' });
    upstream.advance(10_000);
    expect(await tasks.poll(target, context())).toEqual({ status: 'running', vendorStatus: 'dreaming' });
    upstream.advance(60_000);
    const done = await tasks.poll(target, context());
    expect(done).toEqual({
      status: 'succeeded',
      vendorStatus: 'completed',
      progress: 1,
      outputs: [{ url: `${upstream.url}/assets/${submission.upstreamId}/video.mp4`, kind: 'video' }],
    });
    const video = await fetch((done.outputs![0] as { url: string }).url);
    const bytes = Buffer.from(await video.arrayBuffer());
    expect(video.headers.get('content-type')).toBe('video/mp4');
    expect(bytes.subarray(4, 8).toString()).toBe('ftyp');
    expect(bytes.equals(upstream.videoBytes(submission.upstreamId))).toBe(true);
    upstream.expireOutputs();
    expect((await fetch((done.outputs![0] as { url: string }).url)).status).toBe(404);
  });

  it('reports a failed generation with Luma’s reason, content refusals as such', async () => {
    upstream.failNextGeneration('400: Your prompt failed moderation. Details at https://lumalabs.ai/help');
    const request = ask();
    const submission = await tasks.submit('video.generate', request, attempt());
    upstream.advance(70_000);
    const observed = await tasks.poll(targetOf(submission, request), context());
    expect(observed).toEqual({
      status: 'failed',
      vendorStatus: 'failed',
      error: { code: 'content_policy', message: 'Luma: 400: Your prompt failed moderation. Details at [url]' },
    });
  });

  it('reads a generation Luma no longer has as lost, and cancel deletes it', async () => {
    const request = ask();
    const submission = await tasks.submit('video.generate', request, attempt());
    const target = targetOf(submission, request);
    await tasks.cancel!(target, context());
    expect(upstream.requests.at(-1)).toMatchObject({ method: 'DELETE', path: `/dream-machine/v1/generations/${submission.upstreamId}` });
    expect(upstream.generations.get(submission.upstreamId)?.deleted).toBe(true);
    expect(await tasks.poll(target, context())).toMatchObject({ status: 'failed', error: { code: 'upstream_lost' } });
    // Cancelling again (already gone) is not an error.
    await tasks.cancel!(target, context());
  });

  it('passes the gateway’s callback URL, and Luma calls it as the generation moves on', async () => {
    const request = ask();
    const submission = await tasks.submit('video.generate', request, attempt(channel(), `${receiverUrl}/tasks/callback/abc`));
    expect(creates().at(-1)!.body).toMatchObject({ callback_url: `${receiverUrl}/tasks/callback/abc` });
    upstream.advance(70_000);
    await upstream.flushCallbacks();
    const states = received.map((text) => JSON.parse(text) as { id: string; state: string }).filter((body) => body.id === submission.upstreamId);
    expect(states.map((body) => body.state)).toEqual(['completed']);
  });

  it('maps Luma’s error answers to what the engine retries and what it does not', async () => {
    const validation = await failure(tasks.submit('video.generate', ask(), { ...attempt(), upstreamModel: 'ray-9' }));
    expect(validation).toMatchObject({ kind: 'invalid_request', upstreamStatus: 422, retryable: false });
    expect(validation.message).toMatch(/model: Input should be/);

    const refused = await failure(tasks.submit('video.generate', ask({ prompt: 'something forbidden' }), attempt()));
    expect(refused).toMatchObject({ kind: 'invalid_request', upstreamStatus: 400 });
    expect(refused.message).toMatch(/moderation failed/);

    const badKey = await failure(tasks.submit('video.generate', ask(), attempt(channel({ apiKey: 'wrong-key-123456' }))));
    expect(badKey).toMatchObject({ kind: 'upstream', upstreamStatus: 401, retryable: true });
    expect(badKey.message).not.toContain('127.0.0.1');

    upstream.failCreates(1, 500);
    expect(await failure(tasks.submit('video.generate', ask(), attempt()))).toMatchObject({ kind: 'upstream', upstreamStatus: 500, retryable: true });

    const request = ask();
    const submission = await tasks.submit('video.generate', request, attempt());
    upstream.throttleReads(1, 7);
    expect(await failure(tasks.poll(targetOf(submission, request), context()))).toMatchObject({ kind: 'rate_limit', retryAfter: 7 });
  });

  it('never retries a submit whose answer was lost once sent, but does when nothing was sent', async () => {
    upstream.hangNextCreate();
    const before = upstream.generations.size;
    const lost = await failure(tasks.submit('video.generate', ask(), attempt(channel({ timeoutMs: 300 }))));
    expect(upstream.generations.size).toBe(before + 1);
    expect(lost).toMatchObject({ kind: 'timeout', retryable: false, code: 'submit_uncertain' });

    const refused = await failure(tasks.submit('video.generate', ask(), attempt(channel({ baseUrl: 'http://127.0.0.1:9' }))));
    expect(refused).toMatchObject({ retryable: true });
  });
});
