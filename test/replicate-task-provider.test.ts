/**
 * The Replicate task provider (imagegen1) against the fake Replicate API over HTTP: what a
 * submit sends, how polls follow a prediction through its states on the fake's clock, the
 * failures the engine must see as such, cancel, and webhook signatures.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GatewayError } from '../src/core/errors.js';
import type { TaskRequest } from '../src/core/task.js';
import { replicateDescriptor } from '../src/providers/replicate/index.js';
import { createProvider } from '../src/providers/create-provider.js';
import { createReplicateTaskProvider } from '../src/providers/replicate/replicate-tasks.js';
import type { ChannelConfig, TaskPollContext, TaskSubmission, TaskSubmitAttempt, TaskTarget } from '../src/providers/types.js';
import { closeServer, readBodyBytes } from './fakes/fake-http.js';
import {
  FAKE_REPLICATE_TOKEN,
  FAKE_SCHNELL_VERSION,
  type FakeReplicateUpstream,
  fakeReplicateChannel,
  startFakeReplicateUpstream,
} from './fakes/fake-replicate-upstream.js';

const SCHNELL = 'black-forest-labs/flux-schnell';
/** Long enough that only `advance` moves a prediction on. */
const PROCESSING_MS = 60_000;
const tasks = (await createProvider(replicateDescriptor)).tasks!;

interface ReceivedWebhook {
  headers: IncomingHttpHeaders;
  body: Buffer;
}

async function failure(promise: Promise<unknown>): Promise<GatewayError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof GatewayError)) throw new Error(`expected a GatewayError, got ${String(error)}`);
  return error;
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe('replicate task provider against the fake Replicate API', () => {
  let upstream: FakeReplicateUpstream;
  let receiver: Server;
  let receiverUrl: string;
  const received: ReceivedWebhook[] = [];

  const channel = (overrides: Partial<ChannelConfig> = {}, options: Record<string, unknown> = {}): ChannelConfig =>
    fakeReplicateChannel(upstream, { options: { webhookSecret: upstream.webhookSecret, ...options }, ...overrides });
  const attempt = (upstreamModel = SCHNELL, callbackUrl?: string, target = channel()): TaskSubmitAttempt => ({
    channel: target,
    upstreamModel,
    signal: new AbortController().signal,
    requestId: 'req-task-test',
    taskId: 'task_test',
    callbackUrl,
    loadMedia: () => Promise.reject(new Error('not used')),
    storeMedia: () => Promise.reject(new Error('not used')),
  });
  const ask = (prompt: string, extra: Partial<TaskRequest> = {}): TaskRequest => ({ model: SCHNELL, prompt, ...extra });
  const targetOf = (submission: TaskSubmission, request: TaskRequest, upstreamModel = SCHNELL): TaskTarget => ({
    taskId: 'task_test',
    operation: 'image.generate',
    upstreamModel,
    upstreamId: submission.upstreamId,
    upstreamData: submission.upstreamData,
    request,
    createdAt: Date.now(),
  });
  const context = (target = channel()): TaskPollContext => ({ channel: target, signal: new AbortController().signal });
  const creates = () => upstream.requests.filter((request) => request.method === 'POST' && request.path.endsWith('/predictions'));
  const reads = (id: string) => upstream.requests.filter((request) => request.method === 'GET' && request.path === `/v1/predictions/${id}`);

  async function submitted(request: TaskRequest, callbackUrl?: string): Promise<{ submission: TaskSubmission; target: TaskTarget }> {
    const submission = await tasks.submit('image.generate', request, attempt(SCHNELL, callbackUrl));
    return { submission, target: targetOf(submission, request) };
  }

  beforeAll(async () => {
    upstream = await startFakeReplicateUpstream({ processingMs: PROCESSING_MS });
    receiver = createServer((req, res) => {
      void readBodyBytes(req).then((body) => {
        received.push({ headers: req.headers, body });
        res.writeHead(200).end();
      });
    });
    receiverUrl = await listen(receiver);
  });
  afterAll(async () => {
    await upstream.flushWebhooks();
    await upstream.close();
    await closeServer(receiver);
  });

  it('runs image.generate as a task, polled one prediction at a time', () => {
    expect([...tasks.operations]).toEqual(['image.generate']);
    expect(tasks.pollPolicy(channel())).toMatchObject({ firstDelayMs: 1_000, maxBatch: 1, deadlineMs: 1_800_000 });
  });

  it('creates the prediction without waiting, answering its id and first state', async () => {
    const before = upstream.requests.length;
    const submission = await tasks.submit('image.generate', ask('a red kite', { width: 1024, height: 768, count: 2, seed: 5 }), attempt());
    const sent = upstream.requests.slice(before);

    expect(sent).toHaveLength(1);
    expect(sent[0].method).toBe('POST');
    expect(sent[0].path).toBe('/v1/models/black-forest-labs/flux-schnell/predictions');
    expect(sent[0].headers.authorization).toBe(`Bearer ${FAKE_REPLICATE_TOKEN}`);
    expect(sent[0].headers.prefer).toBeUndefined();
    expect(sent[0].body).toEqual({
      input: { prompt: 'a red kite', width: 1024, height: 768, aspect_ratio: '4:3', num_outputs: 2, seed: 5, output_format: 'png' },
    });

    const prediction = [...upstream.predictions.values()].at(-1)!;
    expect(submission).toEqual({
      upstreamId: prediction.id,
      upstreamData: { getUrl: `${upstream.url}/v1/predictions/${prediction.id}`, cancelUrl: `${upstream.url}/v1/predictions/${prediction.id}/cancel` },
      observation: { status: 'submitted', vendorStatus: 'starting' },
    });
  });

  it('asks for the completed webhook only when the gateway gave a callback URL', async () => {
    await tasks.submit('image.generate', ask('a called-back kite'), attempt(SCHNELL, `${receiverUrl}/callbacks/abc`));
    expect(creates().at(-1)!.body).toMatchObject({ webhook: `${receiverUrl}/callbacks/abc`, webhook_events_filter: ['completed'] });
    await tasks.submit('image.generate', ask('a quiet kite'), attempt());
    expect(creates().at(-1)!.body).not.toHaveProperty('webhook');
    expect(creates().at(-1)!.body).not.toHaveProperty('webhook_events_filter');
  });

  it('creates a pinned version through /v1/predictions', async () => {
    const model = `${SCHNELL}:${FAKE_SCHNELL_VERSION}`;
    const submission = await tasks.submit('image.generate', ask('a versioned kite'), attempt(model));
    const create = creates().at(-1)!;
    expect(create.path).toBe('/v1/predictions');
    expect(create.body).toEqual({ version: FAKE_SCHNELL_VERSION, input: { prompt: 'a versioned kite', num_outputs: 1, output_format: 'png' } });
    expect(upstream.predictions.get(submission.upstreamId)!.model).toBe(SCHNELL);
  });

  it('follows the prediction from starting through processing to succeeded, with downloadable outputs', async () => {
    const { target } = await submitted(ask('a progressing kite', { width: 1024, height: 768, count: 2, seed: 5 }));
    const createsBefore = creates().length;

    expect(await tasks.poll(target, context())).toEqual({ status: 'submitted', vendorStatus: 'starting' });
    upstream.advance(PROCESSING_MS / 2);
    const running = await tasks.poll(target, context());
    expect(running).toMatchObject({ status: 'running', vendorStatus: 'processing' });
    expect(running.progress).toBeGreaterThan(0.1);
    expect(running.progress).toBeLessThan(0.9);
    upstream.advance(PROCESSING_MS / 2);
    const done = await tasks.poll(target, context());

    expect(done).toMatchObject({ status: 'succeeded', vendorStatus: 'succeeded', progress: 1, seed: '5' });
    expect(done.outputs).toEqual([
      { url: `${upstream.url}/files/${target.upstreamId}/out-0.png`, kind: 'image' },
      { url: `${upstream.url}/files/${target.upstreamId}/out-1.png`, kind: 'image' },
    ]);
    for (const output of done.outputs!) {
      // Delivery URLs need no token.
      const response = await fetch((output as { url: string }).url);
      expect(response.status).toBe(200);
      const { format, width, height } = await sharp(Buffer.from(await response.arrayBuffer())).metadata();
      expect({ format, width, height }).toEqual({ format: 'png', width: 1152, height: 896 });
    }
    const polls = reads(target.upstreamId);
    expect(polls).toHaveLength(3);
    expect(polls.every((poll) => poll.headers.authorization === `Bearer ${FAKE_REPLICATE_TOKEN}`)).toBe(true);
    // Polling never creates anything again.
    expect(creates()).toHaveLength(createsBefore);
  });

  it('reads a prediction under the channel base when its stored URL points at another host', async () => {
    const { submission, target } = await submitted(ask('a kite read at home'));
    const foreign = { ...target, upstreamData: { getUrl: `http://203.0.113.9/v1/predictions/${submission.upstreamId}` } };
    expect((await tasks.poll(foreign, context())).vendorStatus).toBe('starting');
    expect(reads(submission.upstreamId)).toHaveLength(1);
  });

  it('reports a failed prediction with its error, cleaned', async () => {
    upstream.failNextPrediction('CUDA error: out of memory while loading https://weights.internal.example/flux.safetensors');
    const { target } = await submitted(ask('a doomed kite'));
    upstream.advance(PROCESSING_MS);
    expect(await tasks.poll(target, context())).toEqual({
      status: 'failed',
      vendorStatus: 'failed',
      error: { code: 'upstream_failed', message: 'CUDA error: out of memory while loading [url]' },
    });
  });

  it('turns a throttled poll into a retryable rate limit with its Retry-After', async () => {
    const { target } = await submitted(ask('a throttled kite'));
    upstream.throttleGets(1, 7);
    const error = await failure(tasks.poll(target, context()));
    expect(error).toMatchObject({ kind: 'rate_limit', retryable: true, retryAfter: 7, upstreamStatus: 429 });
    expect((await tasks.poll(target, context())).status).toBe('submitted');
  });

  it('fails a submit on a 5xx as retryable (nothing was created) and on invalid input as the client error', async () => {
    const count = upstream.predictions.size;
    upstream.failCreates(1, 500);
    expect(await failure(tasks.submit('image.generate', ask('an unlucky kite'), attempt()))).toMatchObject({
      kind: 'upstream',
      retryable: true,
      upstreamStatus: 500,
    });
    expect(upstream.predictions.size).toBe(count);
    expect(await failure(tasks.submit('image.generate', ask('too many kites', { count: 9 }), attempt()))).toMatchObject({
      kind: 'invalid_request',
      retryable: false,
      message: 'Input validation failed: input.num_outputs: Must be less than or equal to 4',
    });
  });

  it('never offers a submit whose answer was lost to another channel', async () => {
    const silent = createServer(() => undefined);
    const url = await listen(silent);
    try {
      const error = await failure(tasks.submit('image.generate', ask('a lost kite'), attempt(SCHNELL, undefined, channel({ baseUrl: url, timeoutMs: 300 }))));
      expect(error).toMatchObject({ retryable: false, code: 'submit_uncertain' });
      expect(error.message).not.toContain('127.0.0.1');
    } finally {
      await closeServer(silent);
    }
  });

  it('cancels the prediction upstream', async () => {
    const { target } = await submitted(ask('a cancelled kite'));
    upstream.advance(PROCESSING_MS / 2);
    await tasks.cancel!(target, context());
    expect(upstream.canceled).toContain(target.upstreamId);
    const cancel = upstream.requests.at(-1)!;
    expect(cancel).toMatchObject({ method: 'POST', path: `/v1/predictions/${target.upstreamId}/cancel` });
    expect(cancel.headers.authorization).toBe(`Bearer ${FAKE_REPLICATE_TOKEN}`);
    expect(await tasks.poll(target, context())).toMatchObject({ status: 'canceled', vendorStatus: 'canceled', error: { code: 'upstream_canceled' } });
  });

  it('outputs expire upstream, which is why the engine copies them at once', async () => {
    const { target } = await submitted(ask('a fleeting kite'));
    upstream.advance(PROCESSING_MS);
    const { outputs } = await tasks.poll(target, context());
    const url = (outputs![0] as { url: string }).url;
    expect((await fetch(url)).status).toBe(200);
    upstream.advance(60 * 60_000 + 1);
    expect((await fetch(url)).status).toBe(404);
  });

  describe('webhooks', () => {
    // A fake of its own: its clock (which stamps the deliveries) stays near real time.
    let hooks: FakeReplicateUpstream;
    const hookChannel = (options: Record<string, unknown> = {}) => fakeReplicateChannel(hooks, { options: { webhookSecret: hooks.webhookSecret, ...options } });
    beforeAll(async () => {
      hooks = await startFakeReplicateUpstream({ processingMs: 2_000 });
    });
    afterAll(async () => {
      await hooks.flushWebhooks();
      await hooks.close();
    });

    async function completedWebhook(prompt: string): Promise<ReceivedWebhook> {
      const request = ask(prompt);
      const submission = await tasks.submit(
        'image.generate',
        request,
        attempt(SCHNELL, `${receiverUrl}/callbacks/${prompt.replaceAll(' ', '-')}`, hookChannel()),
      );
      const target = targetOf(submission, request);
      const before = received.length;
      hooks.advance(2_000);
      await hooks.flushWebhooks();
      const delivery = received.slice(before).find((webhook) => JSON.parse(webhook.body.toString()).id === target.upstreamId);
      if (!delivery) throw new Error('no webhook arrived');
      return delivery;
    }

    it('accepts the signed completion webhook Replicate sends', async () => {
      const webhook = await completedWebhook('a signalling kite');
      expect(JSON.parse(webhook.body.toString())).toMatchObject({ status: 'succeeded' });
      expect(tasks.verifyCallback!(hookChannel(), webhook.headers, webhook.body)).toBe(true);
    });

    it('sends the webhook in real time when nobody moves the clock', async () => {
      const quick = await startFakeReplicateUpstream({ processingMs: 50 });
      try {
        const target = fakeReplicateChannel(quick, { options: { webhookSecret: quick.webhookSecret } });
        const submission = await tasks.submit('image.generate', ask('a punctual kite'), attempt(SCHNELL, `${receiverUrl}/callbacks/punctual`, target));
        const arrived = () => received.find((webhook) => webhook.body.toString().includes(submission.upstreamId));
        for (let waited = 0; !arrived() && waited < 3_000; waited += 20) await new Promise((resolve) => setTimeout(resolve, 20));
        expect(tasks.verifyCallback!(target, arrived()!.headers, arrived()!.body)).toBe(true);
        expect(quick.webhooks).toMatchObject([{ predictionId: submission.upstreamId, url: `${receiverUrl}/callbacks/punctual`, status: 200 }]);
      } finally {
        await quick.flushWebhooks();
        await quick.close();
      }
    });

    it('rejects a tampered body, another secret, no secret, a stale timestamp and a bad signature', async () => {
      const webhook = await completedWebhook('a suspicious kite');
      const tampered = Buffer.from(webhook.body.toString().replace('"succeeded"', '"failed"'));
      expect(tasks.verifyCallback!(hookChannel(), webhook.headers, webhook.body)).toBe(true);
      expect(tasks.verifyCallback!(hookChannel(), webhook.headers, tampered)).toBe(false);
      expect(tasks.verifyCallback!(hookChannel({ webhookSecret: 'whsec_QW5vdGhlciBhY2NvdW50IHNlY3JldA==' }), webhook.headers, webhook.body)).toBe(false);
      expect(tasks.verifyCallback!(hookChannel({ webhookSecret: undefined }), webhook.headers, webhook.body)).toBe(false);
      const later = createReplicateTaskProvider({ now: () => Date.now() + 6 * 60_000 });
      expect(later.verifyCallback!(hookChannel(), webhook.headers, webhook.body)).toBe(false);

      hooks.setBadWebhookSignature(true);
      try {
        const forged = await completedWebhook('a forged kite');
        expect(tasks.verifyCallback!(hookChannel(), forged.headers, forged.body)).toBe(false);
      } finally {
        hooks.setBadWebhookSignature(false);
      }
    });
  });
});
