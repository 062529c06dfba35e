/**
 * The Runway task provider against the fake Runway API over HTTP: which route a submit takes and
 * what it sends or refuses, how polls follow a task (THROTTLED, progress, output, failure codes,
 * cancellation) on the fake's clock, the errors the engine must tell apart, and cancel.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GatewayError } from '../src/core/errors.js';
import type { TaskRequest } from '../src/core/task.js';
import { runwayDescriptor } from '../src/providers/runway/index.js';
import { createProvider } from '../src/providers/create-provider.js';
import type { ChannelConfig, TaskPollContext, TaskSubmission, TaskSubmitAttempt, TaskTarget } from '../src/providers/types.js';
import { FAKE_RUNWAY_KEY, type FakeRunwayUpstream, fakeRunwayChannel, RUNWAY_VERSION, startFakeRunwayUpstream } from './fakes/fake-runway-upstream.js';

const tasks = (await createProvider(runwayDescriptor)).tasks!;
const pngBytes = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);
const png = { data: pngBytes, mediaType: 'image/png' };

async function failure(promise: Promise<unknown>): Promise<GatewayError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof GatewayError)) throw new Error(`expected a GatewayError, got ${String(error)}`);
  return error;
}

describe('runway task provider against the fake Runway API', () => {
  let upstream: FakeRunwayUpstream;

  const channel = (overrides: Partial<ChannelConfig> = {}) => fakeRunwayChannel(upstream, overrides);
  const attempt = (upstreamModel = 'gen4_turbo', target = channel()): TaskSubmitAttempt => ({
    channel: target,
    upstreamModel,
    signal: new AbortController().signal,
    requestId: 'req-runway',
    taskId: 'task_runway',
    loadMedia: () => Promise.reject(new Error('not used')),
    storeMedia: () => Promise.reject(new Error('not used')),
  });
  const ask = (extra: Partial<TaskRequest> = {}): TaskRequest => ({ model: 'gen4_turbo', prompt: 'a paper boat drifts', images: [png], ...extra });
  const targetOf = (submission: TaskSubmission, request: TaskRequest): TaskTarget => ({
    taskId: 'task_runway',
    operation: 'video.generate',
    upstreamModel: 'gen4_turbo',
    upstreamId: submission.upstreamId,
    request,
    createdAt: Date.now(),
  });
  const context = (target = channel()): TaskPollContext => ({ channel: target, signal: new AbortController().signal });

  async function started(request = ask(), model = 'gen4_turbo'): Promise<TaskTarget> {
    return targetOf(await tasks.submit('video.generate', request, attempt(model)), request);
  }

  beforeAll(async () => {
    upstream = await startFakeRunwayUpstream({ pendingMs: 5_000, processingMs: 60_000 });
  });
  afterAll(() => upstream.close());

  it('describes a video-only provider with the Runway preset', () => {
    expect([...tasks.operations]).toEqual(['video.generate']);
    expect(runwayDescriptor).toMatchObject({ defaultBaseUrl: 'https://api.dev.runwayml.com', envPreset: { keyVar: 'RUNWAYML_API_SECRET' } });
    expect(tasks.pollPolicy(channel())).toEqual({ firstDelayMs: 3_000, factor: 1.5, maxDelayMs: 20_000, deadlineMs: 3_600_000, maxBatch: 1 });
  });

  it('sends an image task to image_to_video with the image as a data URI, the version header and the mapped ratio', async () => {
    const before = upstream.requests.length;
    const submission = await tasks.submit('video.generate', ask({ seconds: 10, aspectRatio: '9:16', resolution: '720p', seed: 42 }), attempt());
    const sent = upstream.requests.slice(before);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ method: 'POST', path: '/v1/image_to_video' });
    expect(sent[0].headers.authorization).toBe(`Bearer ${FAKE_RUNWAY_KEY}`);
    expect(sent[0].headers['x-runway-version']).toBe(RUNWAY_VERSION);
    expect(sent[0].body).toEqual({
      model: 'gen4_turbo',
      promptImage: `data:image/png;base64,${Buffer.from(pngBytes).toString('base64')}`,
      promptText: 'a paper boat drifts',
      ratio: '720:1280',
      duration: 10,
      seed: 42,
    });
    expect(upstream.tasks.has(submission.upstreamId)).toBe(true);
    expect(submission.observation).toEqual({ status: 'submitted', vendorStatus: 'PENDING' });
  });

  it('sends an image too large for a data URI by the https URL the client gave', async () => {
    const big = { data: new Uint8Array(4 * 1024 * 1024), mediaType: 'image/jpeg', sourceUrl: 'https://img.example/big.jpg' };
    await tasks.submit('video.generate', ask({ images: [big] }), attempt());
    expect(upstream.requests.at(-1)!.body).toMatchObject({ promptImage: 'https://img.example/big.jpg', ratio: '1280:720', duration: 5 });
    const noUrl = await failure(tasks.submit('video.generate', ask({ images: [{ ...big, sourceUrl: undefined }] }), attempt()));
    expect(noUrl).toMatchObject({ kind: 'invalid_request', param: 'images' });
  });

  it('sends a text-only request to text_to_video for Gen-4.5, and refuses it for Gen-4 Turbo', async () => {
    const submission = await tasks.submit('video.generate', ask({ model: 'gen4.5', images: undefined, seconds: 8 }), attempt('gen4.5'));
    expect(upstream.requests.at(-1)).toMatchObject({
      path: '/v1/text_to_video',
      body: { model: 'gen4.5', promptText: 'a paper boat drifts', ratio: '1280:720', duration: 8 },
    });
    expect(upstream.tasks.get(submission.upstreamId)?.route).toBe('text_to_video');

    const before = upstream.requests.length;
    const refused = await failure(tasks.submit('video.generate', ask({ images: undefined }), attempt()));
    expect(refused).toMatchObject({ kind: 'invalid_request', param: 'images' });
    expect(refused.message).toMatch(/from an image only/);
    expect(upstream.requests.length).toBe(before);
  });

  it('refuses what Runway cannot express, naming the field, without calling Runway', async () => {
    const before = upstream.requests.length;
    const cases: Array<[Partial<TaskRequest>, string, string?]> = [
      [{ seconds: 12 }, 'seconds'],
      [{ resolution: '1080p' }, 'resolution'],
      [{ aspectRatio: '9:21' }, 'aspectRatio'],
      [{ images: [png], imageRoles: ['last_frame'] }, 'images'],
      [{ images: [png, png] }, 'images'],
      [{ prompt: 'x'.repeat(1001) }, 'prompt'],
      [{ images: undefined, aspectRatio: '1:1' }, 'aspectRatio', 'gen4.5'],
      [{ prompt: undefined }, 'prompt', 'gen4.5'],
    ];
    for (const [extra, param, model] of cases) {
      expect(await failure(tasks.submit('video.generate', ask(extra), attempt(model)))).toMatchObject({ kind: 'invalid_request', param });
    }
    expect(upstream.requests.length).toBe(before);
  });

  it('follows a task through PENDING, THROTTLED and RUNNING with progress to its video, which the fake serves', async () => {
    upstream.throttleNextTask(10_000);
    const target = await started();
    expect(await tasks.poll(target, context())).toEqual({ status: 'submitted', vendorStatus: 'THROTTLED' });
    upstream.advance(12_000);
    expect(await tasks.poll(target, context())).toEqual({ status: 'submitted', vendorStatus: 'PENDING' });
    upstream.advance(30_000);
    const running = await tasks.poll(target, context());
    expect(running).toMatchObject({ status: 'running', vendorStatus: 'RUNNING' });
    expect(running.progress).toBeGreaterThan(0.4);
    expect(running.progress).toBeLessThan(0.6);
    upstream.advance(30_000);
    const done = await tasks.poll(target, context());
    const url = `${upstream.url}/outputs/${target.upstreamId}/video.mp4`;
    expect(done).toEqual({ status: 'succeeded', vendorStatus: 'SUCCEEDED', progress: 1, outputs: [{ url, kind: 'video' }] });
    const video = await fetch(url);
    const bytes = Buffer.from(await video.arrayBuffer());
    expect(bytes.subarray(4, 8).toString()).toBe('ftyp');
    expect(bytes.equals(upstream.videoBytes(target.upstreamId))).toBe(true);
    upstream.advance(25 * 60 * 60_000);
    expect((await fetch(url)).status).toBe(404);
  });

  it('reports a failed task with Runway’s reason and code, safety codes as content refusals', async () => {
    upstream.failNextTask('The input image did not pass our content moderation.', 'SAFETY.INPUT.IMAGE');
    const unsafe = await started();
    upstream.failNextTask('An unexpected error occurred.', 'INTERNAL');
    const broken = await started();
    upstream.advance(70_000);
    expect(await tasks.poll(unsafe, context())).toEqual({
      status: 'failed',
      vendorStatus: 'FAILED',
      error: { code: 'content_policy', message: 'Runway: The input image did not pass our content moderation. (SAFETY.INPUT.IMAGE)' },
    });
    expect(await tasks.poll(broken, context())).toMatchObject({
      status: 'failed',
      error: { code: 'upstream_failed', message: 'Runway: An unexpected error occurred. (INTERNAL)' },
    });
  });

  it('cancels a running task with DELETE, which then reads CANCELLED; a deleted one reads as lost', async () => {
    const target = await started();
    upstream.advance(10_000);
    await tasks.cancel!(target, context());
    expect(upstream.requests.at(-1)).toMatchObject({ method: 'DELETE', path: `/v1/tasks/${target.upstreamId}` });
    expect(await tasks.poll(target, context())).toMatchObject({ status: 'canceled', vendorStatus: 'CANCELLED', error: { code: 'upstream_canceled' } });
    await tasks.cancel!(target, context());
    expect(await tasks.poll(target, context())).toMatchObject({ status: 'failed', error: { code: 'upstream_lost' } });
  });

  it('maps Runway’s error answers to what the engine retries and what it does not', async () => {
    const moderated = await failure(tasks.submit('video.generate', ask({ prompt: 'something forbidden' }), attempt()));
    expect(moderated).toMatchObject({ kind: 'invalid_request', upstreamStatus: 400, retryable: false });
    expect(moderated.message).toMatch(/content moderation/);

    const invalid = await failure(
      tasks.submit('video.generate', ask({ images: [{ ...png, data: new Uint8Array(4 * 1024 * 1024), sourceUrl: 'https://10.0.0.1/a.png' }] }), attempt()),
    );
    expect(invalid).toMatchObject({ kind: 'invalid_request', upstreamStatus: 400 });
    expect(invalid.message).toMatch(/promptImage: Invalid asset/);

    const badKey = await failure(tasks.submit('video.generate', ask(), attempt('gen4_turbo', channel({ apiKey: 'key_wrong' }))));
    expect(badKey).toMatchObject({ kind: 'upstream', upstreamStatus: 401, retryable: true });

    const badVersion = await failure(tasks.submit('video.generate', ask(), attempt('gen4_turbo', channel({ options: { runwayVersion: '2020-01-01' } }))));
    expect(badVersion).toMatchObject({ kind: 'invalid_request', upstreamStatus: 400 });
    expect(upstream.requests.at(-1)!.headers['x-runway-version']).toBe('2020-01-01');

    upstream.failCreates(1, 502);
    expect(await failure(tasks.submit('video.generate', ask(), attempt()))).toMatchObject({ kind: 'upstream', upstreamStatus: 502, retryable: true });

    const target = await started();
    upstream.throttleReads(1, 9);
    expect(await failure(tasks.poll(target, context()))).toMatchObject({ kind: 'rate_limit', upstreamStatus: 429, retryAfter: 9 });
  });

  it('never retries a submit whose answer was lost once sent, but does when nothing was sent', async () => {
    upstream.hangNextCreate();
    const before = upstream.tasks.size;
    const lost = await failure(tasks.submit('video.generate', ask(), attempt('gen4_turbo', channel({ timeoutMs: 300 }))));
    expect(upstream.tasks.size).toBe(before + 1);
    expect(lost).toMatchObject({ kind: 'timeout', retryable: false, code: 'submit_uncertain' });

    const refused = await failure(tasks.submit('video.generate', ask(), attempt('gen4_turbo', channel({ baseUrl: 'http://127.0.0.1:9' }))));
    expect(refused).toMatchObject({ retryable: true });
  });
});
