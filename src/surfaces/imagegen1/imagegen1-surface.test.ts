import { beforeEach, describe, expect, it } from 'vitest';
import { GatewayError } from '../../core/errors.js';
import type { AuthenticatedKey } from '../../core/key.js';
import type { Task } from '../../core/task.js';
import type { GatewayServices, TaskCall } from '../../gateway/contract.js';
import { unusedServices } from '../../../test/helpers/unused-services.js';
import { servedDuringTests } from '../../../test/helpers/video-surface-stub.js';
import { wordsByStatus } from '../../../test/helpers/words-by-status.js';
import { imagegen1Surface } from './index.js';

const KEY = 'gg-imagegen1-test-key';
const OTHER_KEY = 'gg-imagegen1-other-key';
const T0 = Date.UTC(2026, 0, 2, 3, 4, 5);

function taskOf(id: string, owner: string, overrides: Partial<Task> = {}): Task {
  return {
    id,
    owner,
    surface: 'imagegen1',
    operation: 'image.generate',
    model: 'black-forest-labs/flux-schnell',
    request: { model: 'black-forest-labs/flux-schnell', prompt: 'a red fox', width: 512, height: 256, count: 2, seed: 7, publicBaseUrl: 'http://gw.example' },
    status: 'submitted',
    progress: 0,
    priceNusd: 6_000_000,
    createdAt: T0,
    updatedAt: T0,
    ...overrides,
  };
}

describe('imagegen1Surface', () => {
  const submits: TaskCall[] = [];
  const cancels: string[] = [];
  const tasks = new Map<string, Task>();
  let submitError: GatewayError | undefined;

  const services: GatewayServices = {
    ...unusedServices,
    async authenticate(presented) {
      if (presented === KEY) return { id: 'key-1', name: 'test', models: null, isMaster: false, accountId: null };
      if (presented === OTHER_KEY) return { id: 'key-2', name: 'other', models: null, isMaster: false, accountId: null };
      throw new GatewayError('authentication', presented ? 'invalid API key' : 'missing API key');
    },
    chat: () => {
      throw new Error('chat is not used by this test');
    },
    listModels: () => [],
    tasks: {
      async submit(call) {
        submits.push(call);
        if (submitError) throw submitError;
        const { images: _images, ...request } = call.request;
        // What an engine may hand back: already running upstream by the time submit resolves.
        const task = taskOf('abcdefghijklmnopqrstuvwxyz', call.key.id, {
          model: call.request.model,
          request: { ...request, publicBaseUrl: call.publicBaseUrl },
          status: 'running',
          startedAt: T0 + 500,
          callback: call.callback,
        });
        tasks.set(task.id, task);
        return task;
      },
      async get(key: AuthenticatedKey, id: string) {
        const task = tasks.get(id);
        return task && task.owner === key.id ? task : undefined;
      },
      list: unusedServices.tasks.list,
      async cancel(key: AuthenticatedKey, id: string) {
        cancels.push(id);
        const task = tasks.get(id);
        if (!task || task.owner !== key.id) return undefined;
        const canceled: Task = { ...task, status: 'canceled', finishedAt: T0 + 2_000, error: { code: 'canceled', message: 'canceled by the client' } };
        tasks.set(id, canceled);
        return canceled;
      },
      checkCallbackUrl(url, param) {
        if (!url.startsWith('https://'))
          throw new GatewayError('invalid_request', `${param} must be an http or https URL`, { param, code: 'invalid_callback_url' });
      },
      mediaUrl: (task, mediaId) => `${task.request.publicBaseUrl}/media/${mediaId}`,
      openResult: unusedServices.tasks.openResult,
      page: unusedServices.tasks.page,
      remove: unusedServices.tasks.remove,
    },
  };

  const server = servedDuringTests(imagegen1Surface, services);
  const post = (path: string, body?: unknown, headers: Record<string, string> = { authorization: `Bearer ${KEY}` }) =>
    fetch(`${server.base}${path}`, {
      method: 'POST',
      headers: body === undefined ? headers : { 'content-type': 'application/json', ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  const get = (path: string, key = KEY) => fetch(`${server.base}${path}`, { headers: { authorization: `Bearer ${key}` } });

  beforeEach(() => {
    submits.length = 0;
    cancels.length = 0;
    tasks.clear();
    submitError = undefined;
  });

  it('create: submits an image.generate task and answers 201 pending with the record', async () => {
    const response = await post('/imagegen1/create', {
      model: 'black-forest-labs/flux-schnell',
      prompt: 'a red fox',
      width: 512,
      height: 256,
      num_outputs: 2,
      seed: 7,
      aspect_ratio: 'custom',
      webhook: 'https://client.example/hook',
    });
    expect(response.status).toBe(201);
    const body = await response.json();
    expect(body).toEqual({
      id: 'abcdefghijklmnopqrstuvwxyz',
      model: 'black-forest-labs/flux-schnell',
      status: 'pending',
      input: { aspect_ratio: 'custom', prompt: 'a red fox', width: 512, height: 256, num_outputs: 2, seed: 7 },
      output: null,
      error: null,
      logs: '',
      created_at: '2026-01-02T03:04:05.000Z',
      started_at: null,
      completed_at: null,
      metrics: {},
      urls: { get: `${server.base}/imagegen1/task/abcdefghijklmnopqrstuvwxyz`, cancel: `${server.base}/imagegen1/task/abcdefghijklmnopqrstuvwxyz/cancel` },
    });
    expect(submits).toHaveLength(1);
    const { signal, requestId, key, http, ...call } = submits[0];
    // The call holds its HTTP request (the access log and traces read it there).
    expect(http?.headers).toBeDefined();
    expect(signal).toBeInstanceOf(AbortSignal);
    expect(requestId).toMatch(/.+/);
    expect(key.id).toBe('key-1');
    expect(call).toEqual({
      surface: 'imagegen1',
      operation: 'image.generate',
      publicBaseUrl: server.base,
      callback: { url: 'https://client.example/hook' },
      request: {
        model: 'black-forest-labs/flux-schnell',
        prompt: 'a red fox',
        width: 512,
        height: 256,
        count: 2,
        seed: 7,
        options: { aspect_ratio: 'custom' },
      },
    });
  });

  it('create: accepts Replicate’s own {version, input} shape and the Token authorization form', async () => {
    const response = await post(
      '/imagegen1/create',
      { version: 'stability-ai/sdxl:39ed52f2', input: { prompt: 'a boat', guidance: 3.5 }, webhook_events_filter: ['start'] },
      { authorization: `Token ${KEY}` },
    );
    expect(response.status).toBe(201);
    expect(submits[0].request).toEqual({ model: 'stability-ai/sdxl:39ed52f2', prompt: 'a boat', count: 1, options: { guidance: 3.5 } });
    expect(submits[0].callback).toBeUndefined();
  });

  it('create: answers invalid input with 422 {title, detail, status} and submits nothing', async () => {
    const valid = { model: 'black-forest-labs/flux-schnell', prompt: 'p' };
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ prompt: 'p' }, 'model: is required ("owner/name" or "owner/name:version")'],
      [{ ...valid, model: 'flux-schnell' }, 'model: must name a model as "owner/name" or "owner/name:version", got "flux-schnell"'],
      [{ model: valid.model }, 'prompt: is required'],
      [{ ...valid, prompt: '   ' }, 'prompt: must not be empty'],
      [{ ...valid, prompt: 'x'.repeat(10_001) }, 'prompt: must be at most 10000 characters, got 10001'],
      [{ ...valid, width: 32 }, 'width: must be ≥ 64, got 32'],
      [{ ...valid, height: 512.5 }, 'height: expected an integer, got 512.5'],
      [{ ...valid, width: '512' }, 'width: expected a number, got a string'],
      [{ ...valid, num_outputs: 0 }, 'num_outputs: must be ≥ 1, got 0'],
      [{ ...valid, num_outputs: 5 }, 'num_outputs: must be ≤ 4, got 5'],
      [{ ...valid, seed: -1 }, 'seed: must be ≥ 0, got -1'],
      [{ ...valid, webhook: 'ftp://client.example/hook' }, 'webhook must be an http or https URL'],
      [{ ...valid, style: { nested: true } }, 'style: only string, number and boolean model inputs are accepted, got an object'],
      [{ ...valid, api_key: KEY }, 'api_key: holds your gateway API key, which is never sent to a model'],
    ];
    for (const [body, detail] of cases) {
      const response = await post('/imagegen1/create', body);
      expect(response.status, detail).toBe(422);
      expect(await response.json()).toEqual({ title: 'Input validation failed', detail, status: 422 });
    }
    expect(submits).toHaveLength(0);
  });

  it('create: answers an empty or malformed body with 400', async () => {
    const empty = await post('/imagegen1/create');
    expect(empty.status).toBe(400);
    expect(await empty.json()).toEqual({ title: 'Bad request', detail: 'the request body is empty; a JSON object is required', status: 400 });
    const malformed = await fetch(`${server.base}/imagegen1/create`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      body: '{"model":',
    });
    expect(malformed.status).toBe(400);
    expect(((await malformed.json()) as { detail: string }).detail).toMatch(/^malformed JSON body/);
  });

  it('create: renders the engine’s refusal with its status (an unknown model answers 404)', async () => {
    submitError = new GatewayError('not_found', 'model "acme/nothing" does not exist', { param: 'model' });
    const response = await post('/imagegen1/create', { model: 'acme/nothing', prompt: 'p' });
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ title: 'Not found', detail: 'model "acme/nothing" does not exist', status: 404 });
  });

  it('answers a missing or wrong key with 401 before reading the body', async () => {
    const missing = await post('/imagegen1/create', { model: 'a/b', prompt: 'p' }, {});
    expect(missing.status).toBe(401);
    expect(await missing.json()).toEqual({ title: 'Unauthenticated', detail: 'missing API key', status: 401 });
    const wrong = await fetch(`${server.base}/imagegen1/task/abcdefghijklmnopqrstuvwxyz`, { headers: { authorization: 'Token nope' } });
    expect(wrong.status).toBe(401);
    expect(submits).toHaveLength(0);
  });

  it('lookup: maps every canonical status to imagegen1’s word', async () => {
    for (const [status, word] of wordsByStatus('pending pending processing succeeded failed canceled')) {
      tasks.set('task2', taskOf('task2', 'key-1', { status }));
      const response = await get('/imagegen1/task/task2');
      expect(response.status).toBe(200);
      expect(((await response.json()) as { status: string }).status, status).toBe(word);
    }
  });

  it('lookup: a succeeded task lists gateway media URLs, times and predict_time', async () => {
    tasks.set(
      'done1',
      taskOf('done1', 'key-1', {
        status: 'succeeded',
        submittedAt: T0 + 100,
        startedAt: T0 + 1_000,
        finishedAt: T0 + 3_500,
        result: {
          media: [
            { mediaId: 'm1.png', kind: 'image', mime: 'image/png', bytes: 10 },
            { mediaId: 'm2.png', kind: 'image', mime: 'image/png', bytes: 11 },
          ],
        },
      }),
    );
    const response = await get('/imagegen1/task/done1');
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({
      id: 'done1',
      status: 'succeeded',
      output: ['http://gw.example/media/m1.png', 'http://gw.example/media/m2.png'],
      error: null,
      started_at: '2026-01-02T03:04:06.000Z',
      completed_at: '2026-01-02T03:04:08.500Z',
      metrics: { predict_time: 2.5 },
      input: { prompt: 'a red fox', width: 512, height: 256, num_outputs: 2, seed: 7 },
    });
  });

  it('lookup: a failed task carries its error message and no output', async () => {
    tasks.set(
      'bad1',
      taskOf('bad1', 'key-1', { status: 'failed', finishedAt: T0 + 1_000, error: { code: 'upstream_failed', message: 'NSFW content detected' } }),
    );
    expect(await (await get('/imagegen1/task/bad1')).json()).toMatchObject({ status: 'failed', output: null, error: 'NSFW content detected' });
  });

  it('lookup: unknown ids, another key’s tasks and other families’ tasks answer 404', async () => {
    tasks.set('mine1', taskOf('mine1', 'key-1'));
    tasks.set('1234567890123456789', taskOf('1234567890123456789', 'key-1', { surface: 'imgtask' }));
    for (const [path, key] of [
      ['/imagegen1/task/nothing', KEY],
      ['/imagegen1/task/mine1', OTHER_KEY],
      ['/imagegen1/task/1234567890123456789', KEY],
      [`/imagegen1/task/${'A'.repeat(80)}`, KEY],
    ]) {
      const response = await get(path, key);
      expect(response.status, path).toBe(404);
      const body = (await response.json()) as { title: string; status: number };
      expect(body).toMatchObject({ title: 'Not found', status: 404 });
    }
  });

  it('cancel: cancels the caller’s task and answers the record; unknown or foreign ids answer 404', async () => {
    tasks.set('run1', taskOf('run1', 'key-1', { status: 'running' }));
    const response = await post('/imagegen1/task/run1/cancel');
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ id: 'run1', status: 'canceled', output: null, error: null, completed_at: '2026-01-02T03:04:07.000Z' });
    expect(cancels).toEqual(['run1']);

    expect((await post('/imagegen1/task/run1/cancel', undefined, { authorization: `Bearer ${OTHER_KEY}` })).status).toBe(404);
    expect((await post('/imagegen1/task/none1/cancel')).status).toBe(404);
    tasks.set('1234567890123456789', taskOf('1234567890123456789', 'key-1', { surface: 'imgtask' }));
    expect((await post('/imagegen1/task/1234567890123456789/cancel')).status).toBe(404);
    expect(cancels).toEqual(['run1']);
  });
});
