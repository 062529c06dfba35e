/**
 * The midjourney-proxy task provider against the fake MJ proxy over real HTTP: every submit
 * route and answer code, the states a task moves through, batch polling, seeds, rate limits,
 * timeouts and what is never sent upstream.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { GatewayError } from '../src/core/errors.js';
import type { ImageInput } from '../src/core/image.js';
import type { TaskObservation, TaskOperation, TaskRequest } from '../src/core/task.js';
import { midjourneyProxyDescriptor } from '../src/providers/midjourney-proxy/index.js';
import { createProvider } from '../src/providers/create-provider.js';
import type { ChannelConfig, TaskPollContext, TaskSubmitAttempt, TaskTarget } from '../src/providers/types.js';
import { closeServer } from './fakes/fake-http.js';
import { FAKE_MJ_SECRET, startFakeMjProxy, type FakeMjProxy } from './fakes/fake-mj-proxy.js';

const tasks = (await createProvider(midjourneyProxyDescriptor)).tasks!;
const TASK_MS = 1000;

async function failure(promise: Promise<unknown>): Promise<GatewayError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof GatewayError)) throw new Error(`expected a GatewayError, got ${String(error)}`);
  return error;
}

describe('midjourney-proxy provider against the fake MJ proxy', () => {
  let fake: FakeMjProxy;
  let png: ImageInput;
  const clock = 5_000_000;

  const channel = (overrides: Partial<ChannelConfig> = {}): ChannelConfig => ({
    name: 'mj-up',
    provider: 'midjourney-proxy',
    baseUrl: fake.url,
    apiKey: FAKE_MJ_SECRET,
    headers: {},
    timeoutMs: 5_000,
    options: {},
    ...overrides,
  });
  const attempt = (over: Partial<ChannelConfig> = {}, extra: Partial<TaskSubmitAttempt> = {}): TaskSubmitAttempt => ({
    channel: channel(over),
    upstreamModel: 'imgtask-imagine',
    signal: new AbortController().signal,
    requestId: 'req-mj',
    taskId: 'task-mj',
    callbackUrl: 'https://gateway.example/callbacks/tasks/abc',
    loadMedia: () => Promise.reject(new Error('not used')),
    storeMedia: () => Promise.reject(new Error('not used')),
    ...extra,
  });
  const target = (upstreamId: string, operation: TaskOperation = 'image.imagine'): TaskTarget => ({
    taskId: `gw-${upstreamId}`,
    operation,
    upstreamModel: 'imgtask-imagine',
    upstreamId,
    request: { model: 'imgtask-imagine' },
    createdAt: Date.now(),
  });
  const context = (over: Partial<ChannelConfig> = {}): TaskPollContext => ({ channel: channel(over), signal: new AbortController().signal });
  const submit = (operation: TaskOperation, request: Partial<TaskRequest>, extra: Partial<TaskSubmitAttempt> = {}, over: Partial<ChannelConfig> = {}) =>
    tasks.submit(operation, { model: 'imgtask-imagine', ...request }, attempt(over, extra));
  const imagine = async (prompt = 'a lighthouse at dusk') => (await submit('image.imagine', { prompt })).upstreamId;
  const finished = async (operation: TaskOperation, request: Partial<TaskRequest>, extra: Partial<TaskSubmitAttempt> = {}) => {
    const { upstreamId } = await submit(operation, request, extra);
    fake.advance(TASK_MS);
    return { upstreamId, observation: await tasks.poll(target(upstreamId, operation), context()) };
  };
  const seedCalls = (id: string) => fake.requests.filter((request) => request.path === `/mj/task/${id}/image-seed`).length;

  beforeAll(async () => {
    fake = await startFakeMjProxy({ taskMs: TASK_MS, now: () => clock });
    png = {
      data: await sharp({ create: { width: 8, height: 8, channels: 3, background: '#08f' } })
        .png()
        .toBuffer(),
      mediaType: 'image/png',
    };
  });
  afterAll(async () => {
    await fake.close();
  });
  beforeEach(() => {
    fake.setDelay(0);
    fake.setTaskMs(TASK_MS);
  });

  describe('submit', () => {
    it('imagine: POST /mj/submit/imagine with the secret, and neither notifyHook nor state', async () => {
      const before = fake.submits().length;
      const { upstreamId } = await submit('image.imagine', { prompt: 'a cat', options: { notifyHook: 'https://client.example/hook', state: 'client-state' } });
      const sent = fake.submits().slice(before);
      expect(sent).toHaveLength(1);
      expect(sent[0]).toMatchObject({ method: 'POST', path: '/mj/submit/imagine', body: { prompt: 'a cat' }, answer: { code: 1, result: upstreamId } });
      expect(Object.keys(sent[0].body as object)).toEqual(['prompt']);
      expect(sent[0].headers['mj-api-secret']).toBe(FAKE_MJ_SECRET);
      expect(fake.record(upstreamId)).not.toHaveProperty('state');
      expect(fake.record(upstreamId)!.properties).not.toHaveProperty('notifyHook');
    });

    it('imagine with reference images, blend and describe send data URLs', async () => {
      // The fake records long strings as their head and length (it checked the whole data URL, or it would answer code 4).
      const base64 = Buffer.from(png.data).toString('base64');
      expect(base64.length).toBeGreaterThan(120);
      const dataUrl = `data:image/png;base64,<${base64.length} chars>`;
      await submit('image.imagine', { prompt: 'like this', images: [png] });
      const blend = await submit('image.blend', { images: [png, png], dimensions: 'LANDSCAPE' });
      const describe = await submit('image.describe', { images: [png] });
      const [withImage, blended, described] = fake.submits().slice(-3);
      expect(withImage).toMatchObject({ path: '/mj/submit/imagine', body: { prompt: 'like this', base64Array: [dataUrl] } });
      expect(blended).toMatchObject({ path: '/mj/submit/blend', body: { base64Array: [dataUrl, dataUrl], dimensions: 'LANDSCAPE' } });
      expect(described).toMatchObject({ path: '/mj/submit/describe', body: { base64: dataUrl } });
      expect(fake.tasks.get(blend.upstreamId)!.action).toBe('BLEND');
      expect(fake.tasks.get(describe.upstreamId)!.action).toBe('DESCRIBE');
    });

    it('action: the parent task upstream id and the button, then the new task runs to success', async () => {
      const { upstreamId: parentId, observation: parent } = await finished('image.imagine', { prompt: 'a tower' });
      const u2 = parent.buttons!.find((button) => button.label === 'U2')!;
      const parentTarget = { ...target(parentId), result: { media: [], buttons: parent.buttons } };
      const { upstreamId, observation } = await finished(
        'image.action',
        { model: 'imgtask-upscale', action: { customId: u2.customId } },
        { parent: parentTarget },
      );
      expect(fake.submits().at(-1)).toMatchObject({ path: '/mj/submit/action', body: { taskId: parentId, customId: u2.customId } });
      expect(fake.tasks.get(upstreamId)).toMatchObject({ action: 'UPSCALE', parentId });
      expect(observation).toMatchObject({ status: 'succeeded', outputs: [{ url: `${fake.url}/attachments/${upstreamId}.png`, kind: 'image' }] });
      expect(observation.buttons?.map((button) => button.label)).toContain('Vary (Strong)');
      // Asked again, the proxy answers 21 with the same task: accepted.
      expect((await submit('image.action', { action: { customId: u2.customId } }, { parent: parentTarget })).upstreamId).toBe(upstreamId);
      expect(fake.submits().at(-1)!.answer).toMatchObject({ code: 21 });
    });

    it('codes 1, 21 and 22 are accepted with the upstream id', async () => {
      for (const code of [1, 21, 22]) {
        fake.nextSubmitCode(code);
        const { upstreamId } = await submit('image.imagine', { prompt: `code ${code}` });
        expect(fake.submits().at(-1)!.answer).toMatchObject({ code, result: upstreamId });
        expect(fake.tasks.has(upstreamId)).toBe(true);
      }
    });

    it('code 3 (the task acted on is unknown upstream) is an invalid request', async () => {
      const parent = { ...target('1234567890123456'), result: { media: [] } };
      const error = await failure(submit('image.action', { action: { customId: 'MJ::JOB::upsample::1::abc' } }, { parent }));
      expect(error).toMatchObject({ kind: 'invalid_request', code: 'task_not_found', retryable: false });
      expect(error.message).toContain('task to act on was not found upstream');
    });

    it('code 4 carries the proxy description; 9 is a non-retryable failure; 23 overloaded and retryable; 24 content_policy; others name the code', async () => {
      fake.nextSubmitCode(4, 'base64 format error');
      expect(await failure(imagine())).toMatchObject({ kind: 'invalid_request', retryable: false, message: expect.stringContaining('base64 format error') });
      fake.nextSubmitCode(9);
      expect(await failure(imagine())).toMatchObject({ kind: 'upstream', retryable: false });
      fake.nextSubmitCode(23);
      expect(await failure(imagine())).toMatchObject({ kind: 'overloaded', retryable: true });
      expect(await failure(imagine('a bannedword in the prompt'))).toMatchObject({ kind: 'invalid_request', code: 'content_policy', retryable: false });
      fake.nextSubmitCode(77, 'mystery');
      expect(await failure(imagine())).toMatchObject({ kind: 'upstream', retryable: false, message: expect.stringContaining('code 77') });
    });

    it('a refused secret is a retryable upstream error that does not show the secret', async () => {
      const error = await failure(submit('image.imagine', { prompt: 'x' }, {}, { apiKey: 'the-wrong-secret-xyz' }));
      expect(error).toMatchObject({ kind: 'upstream', retryable: true, upstreamStatus: 401 });
      expect(error.message).toContain("upstream rejected the gateway's credentials");
      expect(error.message).not.toContain('the-wrong-secret-xyz');
      expect(error.message).not.toContain(FAKE_MJ_SECRET);
    });

    it('a proxy that cannot be reached is retryable; one that answers too late is a timeout not retried elsewhere', async () => {
      const closed = createServer();
      await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
      const port = (closed.address() as AddressInfo).port;
      await new Promise<void>((resolve) => closed.close(() => resolve()));
      expect(await failure(submit('image.imagine', { prompt: 'x' }, {}, { baseUrl: `http://127.0.0.1:${port}` }))).toMatchObject({
        kind: 'upstream',
        retryable: true,
      });

      fake.setDelay(400);
      const known = fake.tasks.size;
      const late = await failure(submit('image.imagine', { prompt: 'x' }, {}, { timeoutMs: 100 }));
      expect(late).toMatchObject({ kind: 'timeout', retryable: false });
      // Why it is not retried on another channel: the proxy still took the task.
      await vi.waitFor(() => expect(fake.tasks.size).toBe(known + 1), { timeout: 3_000 });
      expect(late.message).not.toContain('127.0.0.1');
      expect(await failure(tasks.poll(target('1'), context({ timeoutMs: 100 })))).toMatchObject({ kind: 'timeout', retryable: true });
    });

    it('a base URL ending in /mj (with or without a slash) is not given a second /mj', async () => {
      for (const baseUrl of [`${fake.url}/mj`, `${fake.url}/mj/`, `${fake.url}/`]) {
        const { upstreamId } = await submit('image.imagine', { prompt: 'paths' }, {}, { baseUrl });
        expect(fake.submits().at(-1)!.path).toBe('/mj/submit/imagine');
        fake.advance(TASK_MS);
        expect((await tasks.poll(target(upstreamId), context({ baseUrl }))).status).toBe('succeeded');
        expect(fake.requests.at(-2)!.path).toBe(`/mj/task/${upstreamId}/fetch`);
      }
    });
  });

  describe('poll', () => {
    it('follows the task through its states, then fetches the seed once', async () => {
      const submitsBefore = fake.submits().length;
      const id = await imagine();
      const poll = async (ms: number) => {
        fake.advance(ms);
        return tasks.poll(target(id), context());
      };
      expect(await poll(0)).toEqual({ status: 'submitted', vendorStatus: 'NOT_START', progress: 0 });
      expect(await poll(150)).toEqual({ status: 'submitted', vendorStatus: 'SUBMITTED', progress: 0 });
      const running = await poll(350);
      expect(running).toMatchObject({ status: 'running', vendorStatus: 'IN_PROGRESS' });
      expect(running.progress).toBeGreaterThan(0);
      expect(running.progress).toBeLessThan(1);
      expect(running.outputs).toBeUndefined();
      expect((await poll(300)).progress).toBeGreaterThan(running.progress!);
      expect(seedCalls(id)).toBe(0);

      const done = await poll(500);
      expect(done).toMatchObject({ status: 'succeeded', vendorStatus: 'SUCCESS', progress: 1, seed: fake.tasks.get(id)!.seed });
      expect(done.buttons?.map((button) => button.label)).toEqual(['U1', 'U2', 'U3', 'U4', '', 'V1', 'V2', 'V3', 'V4']);
      expect(done.buttons?.[4]).toMatchObject({ customId: expect.stringMatching(/^MJ::JOB::reroll::0::\w+::SOLO$/), emoji: '🔄' });
      expect(seedCalls(id)).toBe(1);
      const image = await fetch((done.outputs![0] as { url: string }).url);
      expect(await sharp(Buffer.from(await image.arrayBuffer())).metadata()).toMatchObject({ format: 'png' });
      expect(fake.submits().length - submitsBefore).toBe(1);
    });

    it('describe: the text, no image outputs, no seed asked', async () => {
      const { upstreamId, observation } = await finished('image.describe', { images: [png] });
      expect(observation.status).toBe('succeeded');
      expect(observation.text).toContain('a fake described image, option 1');
      expect(observation.outputs).toBeUndefined();
      expect(observation.buttons?.map((button) => button.customId)).toContain('MJ::Job::PicReader::1');
      expect(seedCalls(upstreamId)).toBe(0);
    });

    it('a failed task carries its failReason; a missing seed never fails the task', async () => {
      fake.failNextTask('Job action restricted');
      const { observation } = await finished('image.imagine', { prompt: 'x' });
      expect(observation).toEqual({ status: 'failed', vendorStatus: 'FAILURE', error: { code: 'upstream_failed', message: 'Job action restricted' } });

      for (const fault of [400, 404, 500] as const) {
        fake.setSeedFault(fault);
        const { upstreamId, observation: seedless } = await finished('image.imagine', { prompt: `seed fault ${fault}` });
        expect(seedless).toMatchObject({ status: 'succeeded', outputs: [{ url: `${fake.url}/attachments/${upstreamId}.png` }] });
        expect(seedless.seed).toBeUndefined();
        expect(seedCalls(upstreamId)).toBe(1);
      }
      fake.setSeedFault(undefined);
    });

    it('maps MODAL, CANCEL and an unknown status; a task the proxy no longer knows fails', async () => {
      const id = await imagine();
      fake.forceStatus(id, 'MODAL');
      expect(await tasks.poll(target(id), context())).toMatchObject({ status: 'running', vendorStatus: 'MODAL' });
      fake.forceStatus(id, 'CANCEL');
      expect(await tasks.poll(target(id), context())).toMatchObject({ status: 'canceled', vendorStatus: 'CANCEL' });
      fake.forceStatus(id, 'ON_HOLD');
      expect(await tasks.poll(target(id), context())).toMatchObject({ status: 'unknown', vendorStatus: 'ON_HOLD' });
      expect(await tasks.poll(target('9999999999999999'), context())).toEqual({
        status: 'failed',
        vendorStatus: 'NOT_FOUND',
        error: { code: 'upstream_lost', message: 'the upstream no longer knows the task' },
      });
    });

    it('a 429 is a rate_limit error with the Retry-After seconds', async () => {
      const id = await imagine();
      fake.rateLimitPolls(2, '7');
      expect(await failure(tasks.poll(target(id), context()))).toMatchObject({ kind: 'rate_limit', retryable: true, retryAfter: 7, upstreamStatus: 429 });
      expect(await failure(tasks.pollMany!([target(id)], context()))).toMatchObject({ kind: 'rate_limit', retryAfter: 7 });
      expect((await tasks.poll(target(id), context())).status).toBe('submitted');
    });
  });

  describe('unreadable answers', () => {
    /** A stand-in proxy that answers every request with `body` (status 200, JSON content type). */
    async function answering(body: string | Buffer): Promise<{ url: string; close(): Promise<void> }> {
      const server = createServer((req, res) => {
        req.resume();
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
        res.end(body);
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      return {
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        close: () => closeServer(server),
      };
    }

    it('invalid JSON is an upstream error: retryable for a poll, not for a submit (the task may run upstream)', async () => {
      const garbled = await answering('{"code":1,"result":"17');
      try {
        expect(await failure(submit('image.imagine', { prompt: 'x' }, {}, { baseUrl: garbled.url }))).toMatchObject({ kind: 'upstream', retryable: false });
        const polled = await failure(tasks.poll(target('17'), context({ baseUrl: garbled.url })));
        expect(polled).toMatchObject({ kind: 'upstream', retryable: true });
        expect(polled.message).not.toContain('127.0.0.1');
      } finally {
        await garbled.close();
      }
    });

    it('a list answer over 4 MiB is refused without being parsed', async () => {
      const huge = await answering(Buffer.from(`[${'"x",'.repeat(1_200_000)}"x"]`));
      try {
        expect(await failure(tasks.pollMany!([target('1')], context({ baseUrl: huge.url })))).toMatchObject({
          kind: 'upstream',
          message: expect.stringContaining('larger than 4194304 bytes'),
        });
      } finally {
        await huge.close();
      }
    });
  });

  describe('pollMany', () => {
    it('one list-by-condition for the batch; ids the proxy does not know are left out; seeds for the finished ones', async () => {
      const ids = [await imagine('one'), await imagine('two'), await imagine('three')];
      fake.advance(TASK_MS);
      const late = await imagine('four');
      const before = fake.requests.length;
      const seen = await tasks.pollMany!(
        [...ids, late, '8888888888888888'].map((id) => target(id)),
        context(),
      );
      const traffic = fake.requests.slice(before);
      expect(traffic.filter((request) => request.path === '/mj/task/list-by-condition')).toHaveLength(1);
      expect(traffic[0].body).toEqual({ ids: [...ids, late, '8888888888888888'] });
      expect(traffic.filter((request) => request.path.endsWith('/fetch'))).toHaveLength(0);
      expect([...seen.keys()].sort()).toEqual([...ids, late].sort());
      for (const id of ids) expect(seen.get(id)).toMatchObject({ status: 'succeeded', seed: fake.tasks.get(id)!.seed, outputs: [{ kind: 'image' }] });
      expect(seen.get(late)).toMatchObject({ status: 'submitted', vendorStatus: 'NOT_START' });
      expect(seen.get(late)!.seed).toBeUndefined();
      expect(traffic.filter((request) => request.path.endsWith('/image-seed'))).toHaveLength(3);
    });

    it('splits more targets than a batch into several calls of at most maxBatch ids', async () => {
      const { maxBatch } = tasks.pollPolicy(channel());
      const id = await imagine();
      const targets = [target(id), ...Array.from({ length: maxBatch + 10 }, (_, i) => target(String(7_000_000_000_000_000 + i)))];
      const before = fake.requests.length;
      const seen: Map<string, TaskObservation> = await tasks.pollMany!(targets, context());
      const lists = fake.requests.slice(before).filter((request) => request.path === '/mj/task/list-by-condition');
      expect(lists.map((request) => (request.body as { ids: string[] }).ids.length)).toEqual([maxBatch, 11]);
      expect([...seen.keys()]).toEqual([id]);
    });
  });
});
