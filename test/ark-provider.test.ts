/**
 * The Ark task provider (Seedance video) against the fake Ark API over HTTP: what a submit
 * sends (text commands, image roles, the t2v/i2v choice), what it refuses before sending, how
 * polls follow a task through its states on the fake's clock (single and batched), the errors
 * the engine must see as such, cancel, and expiring video URLs.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GatewayError } from '../src/core/errors.js';
import type { ImageInput } from '../src/core/image.js';
import type { TaskRequest } from '../src/core/task.js';
import { arkDescriptor } from '../src/providers/ark/index.js';
import { createProvider } from '../src/providers/create-provider.js';
import type { ChannelConfig, TaskPollContext, TaskSubmission, TaskSubmitAttempt, TaskTarget } from '../src/providers/types.js';
import { closeServer } from './fakes/fake-http.js';
import { FAKE_ARK_KEY, type FakeArkUpstream, fakeArkChannel, fakeArkVideoBytes, startFakeArkUpstream } from './fakes/fake-ark-upstream.js';

/** What the channel's rewrite makes of `videogen2-1-0-lite`. */
const LITE = 'doubao-seedance-1-0-lite';
const LITE_T2V = 'doubao-seedance-1-0-lite-t2v-250428';
const LITE_I2V = 'doubao-seedance-1-0-lite-i2v-250428';
const PRO = 'doubao-seedance-1-0-pro-250528';
/** Long enough that only `advance` moves a task on. */
const QUEUED_MS = 60_000;
const RUNNING_MS = 60_000;
const tasks = (await createProvider(arkDescriptor)).tasks!;

const png = (extra: Partial<ImageInput> = {}): ImageInput => ({
  data: Uint8Array.from([137, 80, 78, 71]),
  mediaType: 'image/png',
  width: 1280,
  height: 720,
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

describe('ark task provider against the fake Ark API', () => {
  let upstream: FakeArkUpstream;

  const channel = (overrides: Partial<ChannelConfig> = {}): ChannelConfig => fakeArkChannel(upstream, overrides);
  const attempt = (upstreamModel: string, callbackUrl?: string, target = channel()): TaskSubmitAttempt => ({
    channel: target,
    upstreamModel,
    signal: new AbortController().signal,
    requestId: 'req-ark-test',
    taskId: 'task_ark_test',
    callbackUrl,
    loadMedia: () => Promise.reject(new Error('not used')),
    storeMedia: () => Promise.reject(new Error('not used')),
  });
  const ask = (extra: Partial<TaskRequest> = {}): TaskRequest => ({ model: 'videogen2-1-0-lite', prompt: 'a red fox runs through snow', ...extra });
  const targetOf = (submission: TaskSubmission, request: TaskRequest, upstreamModel = LITE): TaskTarget => ({
    taskId: 'task_ark_test',
    operation: 'video.generate',
    upstreamModel,
    upstreamId: submission.upstreamId,
    upstreamData: submission.upstreamData,
    request,
    createdAt: Date.now(),
  });
  const context = (target = channel()): TaskPollContext => ({ channel: target, signal: new AbortController().signal });
  const creates = () => upstream.requests.filter((request) => request.method === 'POST' && request.path === '/api/v3/contents/generations/tasks');
  const lastCreateBody = () => creates().at(-1)!.body as { model: string; content: Array<Record<string, unknown>>; callback_url?: string };
  const textOf = (body: { content: Array<Record<string, unknown>> }) => body.content.find((item) => item.type === 'text')?.text;

  async function submitted(request: TaskRequest, upstreamModel = LITE, callbackUrl?: string): Promise<{ submission: TaskSubmission; target: TaskTarget }> {
    const submission = await tasks.submit('video.generate', request, attempt(upstreamModel, callbackUrl));
    return { submission, target: targetOf(submission, request, upstreamModel) };
  }

  beforeAll(async () => {
    upstream = await startFakeArkUpstream({ queuedMs: QUEUED_MS, runningMs: RUNNING_MS });
  });
  afterAll(async () => {
    await upstream.close();
  });

  describe('submit', () => {
    it('text-to-video: the lite family runs its t2v model, settings ride in the text as --name value', async () => {
      const { submission } = await submitted(ask({ seconds: 10, resolution: '720p', aspectRatio: '9:16', seed: 42 }));
      const request = creates().at(-1)!;
      expect(request.headers.authorization).toBe(`Bearer ${FAKE_ARK_KEY}`);
      expect(request.body).toEqual({
        model: LITE_T2V,
        content: [{ type: 'text', text: 'a red fox runs through snow --resolution 720p --ratio 9:16 --duration 10 --seed 42' }],
      });
      expect(submission.upstreamId).toMatch(/^cgt-\d{14}-/);
      expect(submission.upstreamData).toEqual({ model: LITE_T2V });
      expect(upstream.tasks.get(submission.upstreamId)).toMatchObject({ model: LITE_T2V, resolution: '720p', ratio: '9:16', duration: 10, seed: 42 });
    });

    it("image-to-video: an image makes the same public model run i2v, sent by the client's URL or inline, with the callback URL", async () => {
      const { submission } = await submitted(
        ask({ images: [png({ sourceUrl: 'https://img.example/fox.png' })], aspectRatio: 'adaptive' }),
        LITE,
        'https://gw.example/tasks/callback/tok',
      );
      expect(lastCreateBody()).toEqual({
        model: LITE_I2V,
        content: [
          { type: 'text', text: 'a red fox runs through snow --ratio adaptive' },
          { type: 'image_url', image_url: { url: 'https://img.example/fox.png' }, role: 'first_frame' },
        ],
        callback_url: 'https://gw.example/tasks/callback/tok',
      });
      expect(upstream.tasks.get(submission.upstreamId)?.callbackUrl).toBe('https://gw.example/tasks/callback/tok');

      await submitted(ask({ images: [png()] }));
      expect(lastCreateBody().content[1]).toEqual({ type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw==' }, role: 'first_frame' });
    });

    it('sends a first and a last frame in order, and 1 to 4 reference images', async () => {
      const first = png({ sourceUrl: 'https://img.example/first.png' });
      const last = png({ sourceUrl: 'https://img.example/last.png' });
      const { submission } = await submitted(ask({ images: [last, first], imageRoles: ['last_frame', 'first_frame'] }));
      expect(upstream.tasks.get(submission.upstreamId)?.images).toEqual([
        { url: 'https://img.example/first.png', role: 'first_frame' },
        { url: 'https://img.example/last.png', role: 'last_frame' },
      ]);

      const references = Array.from({ length: 4 }, (_, i) => png({ sourceUrl: `https://img.example/ref${i}.png` }));
      const refs = await submitted(ask({ images: references, imageRoles: Array(4).fill('reference_image'), resolution: '720p' }));
      expect(upstream.tasks.get(refs.submission.upstreamId)?.images.map((image) => image.role)).toEqual(Array(4).fill('reference_image'));
      expect(lastCreateBody().model).toBe(LITE_I2V);
    });

    it("keeps the prompt's own commands unless a canonical field sets them: never the same setting twice", async () => {
      const { submission } = await submitted(ask({ prompt: 'a cat on a roof --rs 480p --dur 10 --cf true', resolution: '1080p' }));
      expect(textOf(lastCreateBody())).toBe('a cat on a roof --dur 10 --cf true --resolution 1080p');
      expect(upstream.tasks.get(submission.upstreamId)).toMatchObject({ resolution: '1080p', duration: 10, commands: { camerafixed: 'true' } });
    });

    it('refuses what Seedance cannot do before sending anything, naming the canonical field', async () => {
      const before = creates().length;
      const cases: Array<[TaskRequest, string, string]> = [
        [ask({ seconds: 20 }), LITE, 'seconds'],
        [ask({ seconds: 4.5 }), LITE, 'seconds'],
        [ask({ resolution: '4k' }), LITE, 'resolution'],
        [ask({ aspectRatio: '2:1' }), LITE, 'aspectRatio'],
        [ask({ images: [png()], imageRoles: ['last_frame'] }), LITE, 'images'],
        [ask({ images: Array.from({ length: 5 }, () => png()), imageRoles: Array(5).fill('reference_image') }), LITE, 'images'],
        [ask({ images: [png(), png()], imageRoles: ['first_frame', 'reference_image'] }), LITE, 'images'],
        [ask({ images: [png()], imageRoles: ['reference_image'], resolution: '1080p' }), LITE, 'resolution'],
        [ask({ images: [png()] }), LITE_T2V, 'images'],
        [ask(), LITE_I2V, 'images'],
        [ask({ prompt: '' }), PRO, 'prompt'],
      ];
      for (const [request, model, param] of cases) {
        const error = await failure(tasks.submit('video.generate', request, attempt(model)));
        expect({ kind: error.kind, param: error.param, retryable: error.retryable }).toEqual({ kind: 'invalid_request', param, retryable: false });
      }
      expect(creates().length).toBe(before);
    });

    it('works the same with an SDK-style base URL ending in /api/v3', async () => {
      const submission = await tasks.submit('video.generate', ask(), attempt(PRO, undefined, channel({ baseUrl: `${upstream.url}/api/v3/` })));
      expect(upstream.tasks.get(submission.upstreamId)?.model).toBe(PRO);
    });
  });

  describe('submit errors', () => {
    it('400 InvalidParameter is the client’s and not retried', async () => {
      upstream.failNextCreate({
        status: 400,
        code: 'InvalidParameter',
        message: 'The parameter `content` specified in the request is not valid. Request id: 021',
      });
      const error = await failure(tasks.submit('video.generate', ask(), attempt(LITE)));
      expect(error).toMatchObject({ kind: 'invalid_request', retryable: false, upstreamStatus: 400, code: 'InvalidParameter' });
      expect(error.message).toContain('The parameter `content` specified in the request is not valid');
    });

    it('429 is a rate limit with Retry-After, retryable on another channel', async () => {
      upstream.failNextCreate({ status: 429, code: 'RateLimitExceeded.EndpointRPMExceeded', message: 'slow down', retryAfter: 3 });
      expect(await failure(tasks.submit('video.generate', ask(), attempt(LITE)))).toMatchObject({ kind: 'rate_limit', retryable: true, retryAfter: 3 });
    });

    it('5xx, refused credentials and a model this account lacks are retryable; the key never shows', async () => {
      upstream.failNextCreate({ status: 500, code: 'InternalServiceError', message: 'The service encountered an unexpected internal error.' });
      expect(await failure(tasks.submit('video.generate', ask(), attempt(LITE)))).toMatchObject({ kind: 'upstream', retryable: true });

      const badKey = await failure(tasks.submit('video.generate', ask(), attempt(LITE, undefined, channel({ apiKey: 'ark-wrong-key-123' }))));
      expect(badKey).toMatchObject({ kind: 'upstream', retryable: true, upstreamStatus: 401 });
      expect(badKey.message).not.toContain('ark-wrong-key-123');

      expect(await failure(tasks.submit('video.generate', ask(), attempt('doubao-seedance-9-9-ultra-991231')))).toMatchObject({
        kind: 'upstream',
        retryable: true,
        upstreamStatus: 404,
      });
    });

    it("a prompt refused by Ark's content check is a content-policy refusal", async () => {
      expect(await failure(tasks.submit('video.generate', ask({ prompt: 'forbidden-input scene' }), attempt(LITE)))).toMatchObject({
        kind: 'invalid_request',
        code: 'content_policy',
        retryable: false,
      });
    });

    it('an answer lost after sending is not retried elsewhere: the task may exist upstream', async () => {
      const before = upstream.tasks.size;
      upstream.dropNextCreate();
      const error = await failure(tasks.submit('video.generate', ask(), attempt(LITE)));
      expect(error).toMatchObject({ retryable: false, code: 'submit_uncertain' });
      expect(upstream.tasks.size).toBe(before + 1);
    });

    it('a refused connection (nothing sent) stays retryable', async () => {
      const closed = createServer();
      await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
      const port = (closed.address() as AddressInfo).port;
      await closeServer(closed);
      const error = await failure(tasks.submit('video.generate', ask(), attempt(LITE, undefined, channel({ baseUrl: `http://127.0.0.1:${port}` }))));
      expect(error).toMatchObject({ kind: 'upstream', retryable: true });
    });
  });

  describe('poll', () => {
    it('follows a task through queued, running and succeeded, with its video and the usage Ark reports', async () => {
      const { submission, target } = await submitted(ask({ seconds: 5, resolution: '720p', aspectRatio: '16:9', seed: 7 }));
      expect(await tasks.poll(target, context())).toEqual({ status: 'submitted', vendorStatus: 'queued' });
      upstream.advance(QUEUED_MS);
      expect(await tasks.poll(target, context())).toEqual({ status: 'running', vendorStatus: 'running' });
      upstream.advance(RUNNING_MS);
      const done = await tasks.poll(target, context());
      const tokens = Math.floor((1248 * 704 * 24 * 5) / 1024);
      expect(done).toMatchObject({ status: 'succeeded', vendorStatus: 'succeeded', usage: { seconds: 5, totalTokens: tokens }, seed: '7' });
      const [output] = done.outputs!;
      if (!('url' in output)) throw new Error('expected a URL output');
      expect(output.kind).toBe('video');
      const response = await fetch(output.url);
      expect(response.headers.get('content-type')).toBe('video/mp4');
      const bytes = Buffer.from(await response.arrayBuffer());
      expect(bytes.subarray(4, 8).toString('latin1')).toBe('ftyp');
      expect(bytes.equals(fakeArkVideoBytes(submission.upstreamId))).toBe(true);
    });

    it("video URLs expire: after Ark's 24 hours, and on expireVideos()", async () => {
      const first = await submitted(ask());
      upstream.advance(QUEUED_MS + RUNNING_MS);
      const done = await tasks.poll(first.target, context());
      const url = (done.outputs![0] as { url: string }).url;
      expect((await fetch(url)).status).toBe(200);
      upstream.advance(24 * 60 * 60_000 + 1_000);
      expect((await fetch(url)).status).toBe(403);

      const second = await submitted(ask());
      upstream.advance(QUEUED_MS + RUNNING_MS);
      const secondUrl = ((await tasks.poll(second.target, context())).outputs![0] as { url: string }).url;
      expect((await fetch(secondUrl)).status).toBe(200);
      upstream.expireVideos();
      expect((await fetch(secondUrl)).status).toBe(403);
    });

    it("a failed task keeps Ark's reason; the output content check is content_policy", async () => {
      const moderated = await submitted(ask({ prompt: 'forbidden-output scene' }));
      upstream.failNextTask('InternalServiceError', 'The generation crashed; see https://ark.internal/logs');
      const crashed = await submitted(ask());
      upstream.advance(QUEUED_MS + RUNNING_MS);
      expect(await tasks.poll(moderated.target, context())).toEqual({
        status: 'failed',
        vendorStatus: 'failed',
        error: { code: 'content_policy', message: 'The request failed because the output video may contain sensitive information.' },
      });
      expect(await tasks.poll(crashed.target, context())).toEqual({
        status: 'failed',
        vendorStatus: 'failed',
        error: { code: 'upstream_failed', message: 'The generation crashed; see <url>' },
      });
    });

    it('a task cancelled upstream is canceled; a state the provider does not know is unknown', async () => {
      const cancelled = await submitted(ask());
      upstream.cancelUpstream(cancelled.submission.upstreamId);
      expect(await tasks.poll(cancelled.target, context())).toMatchObject({
        status: 'canceled',
        vendorStatus: 'cancelled',
        error: { code: 'canceled_upstream' },
      });

      const odd = await submitted(ask());
      upstream.setStatus(odd.submission.upstreamId, 'paused');
      expect(await tasks.poll(odd.target, context())).toEqual({ status: 'unknown', vendorStatus: 'paused' });
    });

    it('a throttled poll is a rate limit carrying Retry-After; the next one goes through', async () => {
      const { target } = await submitted(ask());
      upstream.throttleGets(1, 4);
      expect(await failure(tasks.poll(target, context()))).toMatchObject({ kind: 'rate_limit', retryAfter: 4 });
      expect(await tasks.poll(target, context())).toMatchObject({ status: 'submitted' });
    });

    it('a task Ark no longer knows fails as lost', async () => {
      const { submission } = await submitted(ask());
      const target = targetOf({ ...submission, upstreamId: 'cgt-20250101000000-gone0' }, ask());
      expect(await tasks.poll(target, context())).toMatchObject({ status: 'failed', error: { code: 'upstream_lost' } });
    });

    it('polls a batch in one read of the task list filtered by ids', async () => {
      const started = await Promise.all([submitted(ask()), submitted(ask()), submitted(ask())]);
      upstream.advance(QUEUED_MS);
      const reads = upstream.requests.length;
      const missing = targetOf({ upstreamId: 'cgt-20250101000000-nope00' }, ask());
      const seen = await tasks.pollMany!([...started.map((s) => s.target), missing], context());
      const calls = upstream.requests.slice(reads);
      expect(calls).toHaveLength(1);
      expect(calls[0].method).toBe('GET');
      expect(calls[0].query.getAll('filter.task_ids')).toEqual([...started.map((s) => s.submission.upstreamId), 'cgt-20250101000000-nope00']);
      expect([...seen.keys()].sort()).toEqual(started.map((s) => s.submission.upstreamId).sort());
      for (const observation of seen.values()) expect(observation).toEqual({ status: 'running', vendorStatus: 'running' });
    });
  });

  describe('cancel', () => {
    it('DELETE cancels a queued task, which then polls as canceled', async () => {
      const { submission, target } = await submitted(ask());
      await tasks.cancel!(target, context());
      const deletes = upstream.requests.filter((request) => request.method === 'DELETE');
      expect(deletes.at(-1)?.path).toBe(`/api/v3/contents/generations/tasks/${submission.upstreamId}`);
      expect(upstream.cancelled).toContain(submission.upstreamId);
      expect(await tasks.poll(target, context())).toMatchObject({ status: 'canceled' });
    });

    it('a running task cannot be cancelled upstream: the refusal reaches the engine', async () => {
      const { target } = await submitted(ask());
      upstream.advance(QUEUED_MS);
      expect(await failure(tasks.cancel!(target, context()))).toMatchObject({ kind: 'invalid_request', upstreamStatus: 400 });
      expect(await tasks.poll(target, context())).toMatchObject({ status: 'running' });
    });

    it('a task already gone upstream is nothing left to cancel', async () => {
      const { submission } = await submitted(ask());
      await expect(tasks.cancel!(targetOf({ ...submission, upstreamId: 'cgt-20250101000000-gone1' }, ask()), context())).resolves.toBeUndefined();
    });
  });
});
