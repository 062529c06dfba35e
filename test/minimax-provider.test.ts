/**
 * The MiniMax video task provider against the fake MiniMax API over real HTTP: what a submit
 * sends, every base_resp error and HTTP failure, the states a task moves through, the file
 * retrieval and its expiring download URL, and failure reasons.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GatewayError } from '../src/core/errors.js';
import type { ImageInput } from '../src/core/image.js';
import type { TaskRequest } from '../src/core/task.js';
import { minimaxDescriptor } from '../src/providers/minimax/index.js';
import { createProvider } from '../src/providers/create-provider.js';
import type { ChannelConfig, TaskPollContext, TaskSubmitAttempt, TaskTarget } from '../src/providers/types.js';
import { closeServer } from './fakes/fake-http.js';
import { FAKE_MINIMAX_KEY, type FakeMinimaxUpstream, startFakeMinimaxUpstream } from './fakes/fake-minimax-upstream.js';

const tasks = (await createProvider(minimaxDescriptor)).tasks!;
const TASK_MS = 100_000;
const URL_TTL_MS = 60_000;

async function failure(promise: Promise<unknown>): Promise<GatewayError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof GatewayError)) throw new Error(`expected a GatewayError, got ${String(error)}`);
  return error;
}

async function download(url: string): Promise<{ status: number; bytes: Buffer }> {
  const response = await fetch(url);
  return { status: response.status, bytes: Buffer.from(await response.arrayBuffer()) };
}

describe('minimax provider against the fake MiniMax API', () => {
  let fake: FakeMinimaxUpstream;
  const warnings: string[] = [];

  const channel = (overrides: Partial<ChannelConfig> = {}): ChannelConfig => ({
    name: 'minimax-up',
    provider: 'minimax',
    baseUrl: fake.url,
    apiKey: FAKE_MINIMAX_KEY,
    headers: {},
    timeoutMs: 5_000,
    options: {},
    ...overrides,
  });
  const attempt = (upstreamModel = 'video-01', over: Partial<ChannelConfig> = {}): TaskSubmitAttempt => ({
    channel: channel(over),
    upstreamModel,
    signal: new AbortController().signal,
    requestId: 'req-mm',
    taskId: 'task-mm',
    callbackUrl: 'https://gateway.example/tasks/callback/tok123',
    warn: (message) => warnings.push(message),
    loadMedia: () => Promise.reject(new Error('not used')),
    storeMedia: () => Promise.reject(new Error('not used')),
  });
  const ask = (request: Partial<TaskRequest> = {}): TaskRequest => ({ model: 'videogen1-video-01', prompt: 'a red fox in snow', ...request });
  const submit = (request: Partial<TaskRequest> = {}, upstreamModel = 'video-01', over: Partial<ChannelConfig> = {}) =>
    tasks.submit('video.generate', ask(request), attempt(upstreamModel, over));
  const target = (upstreamId: string): TaskTarget => ({
    taskId: `gw-${upstreamId}`,
    operation: 'video.generate',
    upstreamModel: 'video-01',
    upstreamId,
    request: { model: 'videogen1-video-01' },
    createdAt: Date.now(),
  });
  const context = (over: Partial<ChannelConfig> = {}): TaskPollContext => ({ channel: channel(over), signal: new AbortController().signal });
  const poll = (id: string, over: Partial<ChannelConfig> = {}) => tasks.poll(target(id), context(over));

  beforeAll(async () => {
    fake = await startFakeMinimaxUpstream({ taskMs: TASK_MS, urlTtlMs: URL_TTL_MS, now: () => 7_000_000 });
  });
  afterAll(async () => {
    await fake.close();
  });

  describe('submit', () => {
    it('POSTs /v1/video_generation with the Bearer key, the mapped fields and the callback URL', async () => {
      warnings.length = 0;
      const { upstreamId } = await submit({ seconds: 5, aspectRatio: '16:9' });
      const sent = fake.submits().at(-1)!;
      expect(sent.headers.authorization).toBe(`Bearer ${FAKE_MINIMAX_KEY}`);
      expect(sent.headers['content-type']).toBe('application/json');
      expect(sent.body).toEqual({
        model: 'video-01',
        prompt: 'a red fox in snow',
        duration: 6,
        callback_url: 'https://gateway.example/tasks/callback/tok123',
      });
      expect(sent.answer).toEqual({ task_id: upstreamId, base_resp: { status_code: 0, status_msg: 'success' } });
      expect(fake.tasks.get(upstreamId)).toMatchObject({ model: 'video-01', duration: 6, resolution: '720P' });
      expect(warnings).toEqual(['seconds: MiniMax video-01 makes 6-second videos at the shortest; 6 s were made instead of 5 s']);
    });

    it('sends a first frame as a data URL (or the URL the client gave), and Hailuo lengths and resolutions', async () => {
      const image: ImageInput = { data: new Uint8Array(300).fill(7), mediaType: 'image/png', width: 1280, height: 720 };
      const { upstreamId } = await submit({ images: [image], seconds: 10, resolution: '768p' }, 'MiniMax-Hailuo-02');
      expect(fake.submits().at(-1)!.body).toMatchObject({
        model: 'MiniMax-Hailuo-02',
        duration: 10,
        resolution: '768P',
        first_frame_image: 'data:image/png;base64,<400 chars>',
      });
      expect(fake.tasks.get(upstreamId)!.firstFrame).toBe('data:image/png;base64,<400 chars>');
      await submit({ images: [{ ...image, sourceUrl: 'https://images.example/fox.png' }], prompt: undefined }, 'I2V-01');
      expect(fake.submits().at(-1)!.body).toEqual({
        model: 'I2V-01',
        first_frame_image: 'https://images.example/fox.png',
        callback_url: 'https://gateway.example/tasks/callback/tok123',
      });
    });

    it('leaves the callback URL out when the channel says callbacks: false; takes a base URL ending in /v1', async () => {
      await submit({}, 'video-01', { options: { callbacks: false }, baseUrl: `${fake.url}/v1/` });
      expect(fake.submits().at(-1)!.body).toEqual({ model: 'video-01', prompt: 'a red fox in snow' });
    });

    it('refuses what MiniMax cannot make before anything is sent, naming the field', async () => {
      const before = fake.submits().length;
      expect(await failure(submit({ seconds: 10 }))).toMatchObject({ kind: 'invalid_request', param: 'seconds' });
      expect(await failure(submit({ aspectRatio: '9:16' }))).toMatchObject({ kind: 'invalid_request', param: 'aspectRatio' });
      expect(await failure(submit({ resolution: '1080p' }))).toMatchObject({ kind: 'invalid_request', param: 'resolution' });
      const frame: ImageInput = { data: new Uint8Array(8), mediaType: 'image/png' };
      expect(await failure(submit({ images: [frame], imageRoles: ['last_frame'] }))).toMatchObject({ kind: 'invalid_request', param: 'images' });
      expect(fake.submits().length).toBe(before);
    });

    it('maps every base_resp error MiniMax answers with HTTP 200', async () => {
      const cases: Array<[number, Record<string, unknown>]> = [
        [1002, { kind: 'rate_limit', retryable: true }],
        [1004, { kind: 'upstream', retryable: true }],
        [1008, { kind: 'upstream', retryable: true }],
        [1026, { kind: 'invalid_request', retryable: false, code: 'content_policy' }],
        [1027, { kind: 'invalid_request', retryable: false, code: 'content_policy' }],
        [2013, { kind: 'invalid_request', retryable: false }],
        [1013, { kind: 'upstream', retryable: true }],
      ];
      for (const [code, expected] of cases) {
        fake.nextError('video_generation', code, `vendor message ${code}`);
        const error = await failure(submit());
        expect(error, String(code)).toMatchObject(expected);
        expect(error.message).toContain(`vendor message ${code}`);
        expect(fake.submits().at(-1)!.status).toBe(200);
      }
    });

    it("answers the fake's own checks: a wrong key (1004, no secret echoed), a sensitive prompt (1026), bad parameters (2013)", async () => {
      const wrongKey = await failure(submit({}, 'video-01', { apiKey: 'sk-wrong-key-0000' }));
      expect(wrongKey).toMatchObject({ kind: 'upstream', retryable: true });
      expect(wrongKey.message).toContain('(1004)');
      expect(wrongKey.message).not.toContain('sk-wrong-key-0000');
      expect(await failure(submit({ prompt: 'a forbiddenword scene' }))).toMatchObject({ kind: 'invalid_request', code: 'content_policy' });
      // A model the provider does not know is passed on; MiniMax refuses it.
      expect(await failure(submit({}, 'video-99'))).toMatchObject({ kind: 'invalid_request', message: expect.stringContaining('(2013)') });
    });

    it('maps HTTP errors as usual: 429 with Retry-After, 503', async () => {
      fake.httpErrors(1, 429, '4');
      expect(await failure(submit())).toMatchObject({ kind: 'rate_limit', retryable: true, retryAfter: 4, upstreamStatus: 429 });
      fake.httpErrors(1, 503);
      expect(await failure(submit())).toMatchObject({ kind: 'overloaded', retryable: true, upstreamStatus: 503 });
    });

    it('never offers a submit whose answer was lost to another channel', async () => {
      const silent = createServer(() => undefined);
      const url = await listen(silent);
      try {
        const error = await failure(submit({}, 'video-01', { baseUrl: url, timeoutMs: 300 }));
        expect(error).toMatchObject({ retryable: false, code: 'submit_uncertain' });
        expect(error.message).toContain('the task may have been created upstream');
        expect(error.message).not.toContain('127.0.0.1');
      } finally {
        await closeServer(silent);
      }
    });

    it('keeps a refused connection retryable: nothing was sent', async () => {
      const closed = createServer();
      const url = await listen(closed);
      await closeServer(closed);
      expect(await failure(submit({}, 'video-01', { baseUrl: url }))).toMatchObject({ retryable: true });
    });
  });

  describe('poll', () => {
    it('moves Preparing → Queueing → Processing → Success, then retrieves the file and hands its URL over', async () => {
      const { upstreamId } = await submit({ prompt: 'a fox walking' });
      expect(await poll(upstreamId)).toEqual({ status: 'submitted', vendorStatus: 'Preparing' });
      fake.advance(TASK_MS * 0.1);
      expect(await poll(upstreamId)).toEqual({ status: 'submitted', vendorStatus: 'Queueing' });
      fake.advance(TASK_MS * 0.5);
      expect(await poll(upstreamId)).toEqual({ status: 'running', vendorStatus: 'Processing' });
      const queries = fake.requests.filter((request) => request.path === '/v1/query/video_generation');
      expect(queries.at(-1)).toMatchObject({ method: 'GET', query: { task_id: upstreamId } });
      expect(queries.at(-1)!.headers.authorization).toBe(`Bearer ${FAKE_MINIMAX_KEY}`);

      fake.advance(TASK_MS * 0.4);
      const done = await poll(upstreamId);
      expect(done).toMatchObject({ status: 'succeeded', vendorStatus: 'Success', outputs: [{ kind: 'video', url: expect.any(String) }] });
      const retrieve = fake.requests.at(-1)!;
      expect(retrieve).toMatchObject({ method: 'GET', path: '/v1/files/retrieve', query: { file_id: fake.tasks.get(upstreamId)!.fileId } });
      expect(retrieve.headers.authorization).toBe(`Bearer ${FAKE_MINIMAX_KEY}`);

      const { status, bytes } = await download((done.outputs![0] as { url: string }).url);
      expect(status).toBe(200);
      expect(bytes.subarray(4, 8).toString('latin1')).toBe('ftyp');
      expect(bytes.equals(fake.videoOf(upstreamId))).toBe(true);
    });

    it("hands over a fresh URL on each poll once MiniMax's URL expired", async () => {
      const { upstreamId } = await submit({ prompt: 'a fox at dusk' });
      fake.advance(TASK_MS);
      const first = ((await poll(upstreamId)).outputs![0] as { url: string }).url;
      expect((await download(first)).status).toBe(200);
      fake.advance(URL_TTL_MS);
      expect((await download(first)).status).toBe(403);
      const second = ((await poll(upstreamId)).outputs![0] as { url: string }).url;
      expect(second).not.toBe(first);
      expect((await download(second)).bytes.equals(fake.videoOf(upstreamId))).toBe(true);
      fake.expireFiles();
      expect((await download(second)).status).toBe(403);
    });

    it("fails a task with MiniMax's reason: its error text, or its base_resp (sensitive output as content_policy)", async () => {
      fake.failNextTask('the render crashed at frame 42');
      const crashed = (await submit({ prompt: 'a doomed fox' })).upstreamId;
      fake.failNextTask('output video sensitive', 1027);
      const sensitive = (await submit({ prompt: 'a doubtful fox' })).upstreamId;
      fake.advance(TASK_MS);
      expect(await poll(crashed)).toEqual({
        status: 'failed',
        vendorStatus: 'Fail',
        error: { code: 'upstream_failed', message: 'MiniMax: the render crashed at frame 42' },
      });
      expect(await poll(sensitive)).toEqual({
        status: 'failed',
        vendorStatus: 'Fail',
        error: { code: 'content_policy', message: 'MiniMax: output video sensitive' },
      });
      expect(fake.requests.some((request) => request.path === '/v1/files/retrieve' && request.query.file_id === fake.tasks.get(crashed)!.fileId)).toBe(false);
    });

    it('reports a state it does not know as unknown', async () => {
      const { upstreamId } = await submit();
      fake.forceStatus(upstreamId, 'Paused');
      expect(await poll(upstreamId)).toEqual({ status: 'unknown', vendorStatus: 'Paused' });
    });

    it('throws a throttled poll as a rate limit (HTTP 429 with Retry-After, or base_resp 1002) and polls on afterwards', async () => {
      const { upstreamId } = await submit();
      fake.httpErrors(1, 429, '9');
      expect(await failure(poll(upstreamId))).toMatchObject({ kind: 'rate_limit', retryAfter: 9, upstreamStatus: 429 });
      fake.nextError('query', 1002, 'rate limit exceeded(RPM)');
      expect(await failure(poll(upstreamId))).toMatchObject({ kind: 'rate_limit', retryable: true });
      expect((await poll(upstreamId)).status).toBe('submitted');
    });

    it('throws a failed file retrieval (the task stays to be polled again)', async () => {
      const { upstreamId } = await submit();
      fake.advance(TASK_MS);
      fake.nextError('retrieve', 1000, 'unknown error');
      expect(await failure(poll(upstreamId))).toMatchObject({ kind: 'upstream', retryable: true, message: 'MiniMax error (1000): unknown error' });
      expect((await poll(upstreamId)).status).toBe('succeeded');
    });

    it('keeps an unknown task id as an error, not a result', async () => {
      expect(await failure(poll('123456'))).toMatchObject({ kind: 'invalid_request', message: expect.stringContaining('task_id not found') });
    });
  });
});

function listen(server: Server): Promise<string> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)));
}
