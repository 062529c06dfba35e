import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../core/errors.js';
import { T0, VIDEO_RESULT, surfaceUnderTest, unservedLookups, videoSurfaceStub, videoTask } from '../../../test/helpers/video-surface-stub.js';
import { wordsByStatus } from '../../../test/helpers/words-by-status.js';
import { videogen1Surface } from './index.js';

describe('videogen1Surface', () => {
  const stub = videoSurfaceStub('videogen1');
  const { server, post, get } = surfaceUnderTest(videogen1Surface, stub);

  it('create: submits a video.generate task and answers the envelope with pending', async () => {
    const response = await post('/videogen1/video', {
      prompt: 'waves at dusk',
      duration: 6,
      aspect_ratio: '9:16',
      callback_url: 'https://client.example/hook',
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      code: 0,
      message: 'success',
      data: { task_id: 'task_abcdefghijklmnopqrstuvwxyz', status: 'pending', created_at: '2026-01-02T03:04:05.000Z' },
    });
    expect(stub.submits).toHaveLength(1);
    const { signal, requestId, key, http, ...call } = stub.submits[0];
    // The call holds its HTTP request (the access log and traces read it there).
    expect(http?.headers).toBeDefined();
    expect(signal).toBeInstanceOf(AbortSignal);
    expect(requestId).toMatch(/.+/);
    expect(key.id).toBe('key-1');
    expect(call).toEqual({
      surface: 'videogen1',
      operation: 'video.generate',
      publicBaseUrl: server.base,
      callback: { url: 'https://client.example/hook' },
      request: { model: 'videogen1-video-01', prompt: 'waves at dusk', seconds: 6, aspectRatio: '9:16' },
    });
  });

  it('create: defaults the model and a 5 second duration', async () => {
    expect((await post('/videogen1/video', { prompt: 'p', model: 'videogen1-video-02' })).status).toBe(200);
    expect(stub.submits[0].request).toEqual({ model: 'videogen1-video-02', prompt: 'p', seconds: 5 });
    expect(stub.submits[0].callback).toBeUndefined();
    await post('/videogen1/video', { prompt: 'p' });
    expect(stub.submits[1].request.model).toBe('videogen1-video-01');
  });

  it('create: answers invalid fields with 400 {code: 1001, message naming the field, data: null} and submits nothing', async () => {
    const cases: Array<[unknown, string]> = [
      [{}, 'prompt: is required'],
      [{ prompt: 7 }, 'prompt: expected a string, got a number'],
      [{ prompt: '  ' }, 'prompt: must not be empty'],
      [{ prompt: 'x'.repeat(10_001) }, 'prompt: must be at most 10000 characters, got 10001'],
      [{ prompt: 'p', duration: 0 }, 'duration: must be ≥ 1, got 0'],
      [{ prompt: 'p', duration: 21 }, 'duration: must be ≤ 20, got 21'],
      [{ prompt: 'p', duration: 5.5 }, 'duration: expected an integer, got 5.5'],
      [{ prompt: 'p', duration: '5' }, 'duration: expected a number, got a string'],
      [{ prompt: 'p', aspect_ratio: '4:3' }, 'aspect_ratio: must be one of "16:9", "9:16", "1:1", got "4:3"'],
      [{ prompt: 'p', model: 'bad model' }, 'model: must be a model id such as "videogen1-video-01", got "bad model"'],
      [{ prompt: 'p', callback_url: 'ftp://x' }, 'callback_url must be an http or https URL'],
      [[1], 'the request body must be a JSON object'],
    ];
    for (const [body, message] of cases) {
      const response = await post('/videogen1/video', body);
      expect(response.status, message).toBe(400);
      expect(await response.json()).toEqual({ code: 1001, message, data: null });
    }
    const empty = await post('/videogen1/video');
    expect(await empty.json()).toEqual({ code: 1001, message: 'the request body is empty; a JSON object is required', data: null });
    expect(stub.submits).toHaveLength(0);
  });

  it('create: a provider’s refusal names the client’s field, and an unknown model answers 404', async () => {
    stub.fail.submit = new GatewayError('invalid_request', 'seconds: this model makes 6 or 10 second videos, got 5', { param: 'seconds' });
    const refused = await post('/videogen1/video', { prompt: 'p' });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toEqual({ code: 1001, message: 'duration: this model makes 6 or 10 second videos, got 5', data: null });
    stub.fail.submit = new GatewayError('not_found', 'model "videogen1-nothing" does not exist', { param: 'model' });
    const unknown = await post('/videogen1/video', { prompt: 'p', model: 'videogen1-nothing' });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({ code: 1004, message: 'model "videogen1-nothing" does not exist', data: null });
  });

  it('answers a missing or wrong key with 401 before reading the body', async () => {
    const missing = await post('/videogen1/video', { prompt: 'p' }, {});
    expect(missing.status).toBe(401);
    expect(await missing.json()).toEqual({ code: 1002, message: 'missing API key', data: null });
    const malformed = await fetch(`${server.base}/videogen1/video`, {
      method: 'POST',
      headers: { authorization: 'Bearer nope', 'content-type': 'application/json' },
      body: '{"prompt":',
    });
    expect(malformed.status).toBe(401);
    expect(stub.submits).toHaveLength(0);
  });

  it('lookup: maps every canonical status to videogen1’s word', async () => {
    for (const [status, word] of wordsByStatus('pending pending processing succeeded failed failed')) {
      stub.tasks.set('task_2', videoTask('videogen1', 'task_2', 'key-1', { status }));
      const response = await get('/videogen1/video/task_2');
      expect(response.status).toBe(200);
      expect(((await response.json()) as { data: { status: string } }).data.status, status).toBe(word);
    }
  });

  it('lookup: a succeeded task links the gateway’s download route, with duration and times', async () => {
    stub.tasks.set('task_done', videoTask('videogen1', 'task_done', 'key-1', { status: 'succeeded', result: VIDEO_RESULT, updatedAt: T0 + 61_000 }));
    const response = await get('/videogen1/video/task_done');
    expect(await response.json()).toEqual({
      code: 0,
      message: 'success',
      data: {
        task_id: 'task_done',
        model: 'videogen1-video-01',
        status: 'succeeded',
        video_url: `${server.base}/v1/videos/task_done/download`,
        duration: 5,
        error: null,
        created_at: '2026-01-02T03:04:05.000Z',
        updated_at: '2026-01-02T03:05:06.000Z',
      },
    });
  });

  it('lookup: a failed or canceled task carries its reason and no video', async () => {
    stub.tasks.set(
      'task_bad',
      videoTask('videogen1', 'task_bad', 'key-1', { status: 'failed', error: { code: 'content_policy', message: 'sensitive content' } }),
    );
    expect(((await (await get('/videogen1/video/task_bad')).json()) as { data: unknown }).data).toMatchObject({
      status: 'failed',
      video_url: null,
      error: 'sensitive content',
    });
    stub.tasks.set(
      'task_off',
      videoTask('videogen1', 'task_off', 'key-1', { status: 'canceled', error: { code: 'canceled', message: 'canceled by the client' } }),
    );
    expect(((await (await get('/videogen1/video/task_off')).json()) as { data: unknown }).data).toMatchObject({
      status: 'failed',
      error: 'canceled by the client',
    });
  });

  it('lookup: unknown ids, another key’s tasks and other families’ tasks answer the same 404', async () => {
    for (const [path, key] of unservedLookups(stub, 'videogen1', 'videogen2', (id) => `/videogen1/video/${id}`, 'a'.repeat(80))) {
      const response = await get(path, key);
      expect(response.status, path).toBe(404);
      const body = (await response.json()) as { code: number; data: null };
      expect(body).toMatchObject({ code: 1004, data: null });
    }
  });
});
