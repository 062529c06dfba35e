import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../core/errors.js';
import {
  IMAGE_URL,
  PNG_DATA_URL,
  T0,
  VIDEO_RESULT,
  surfaceUnderTest,
  unservedLookups,
  videoSurfaceStub,
  videoTask,
} from '../../../test/helpers/video-surface-stub.js';
import { wordsByStatus } from '../../../test/helpers/words-by-status.js';
import { videogen2Surface } from './index.js';

const MODEL = 'videogen2-1-0-lite';

describe('videogen2Surface', () => {
  const stub = videoSurfaceStub('videogen2');
  const { server, post, get, del } = surfaceUnderTest(videogen2Surface, stub);

  it('create: submits a text-to-video task and answers {id, status: submitted, created_at}', async () => {
    const response = await post('/videogen2/video', {
      model: MODEL,
      prompt: 'a kite',
      resolution: '1080p',
      duration: 10,
      callback_url: 'https://client.example/h',
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ id: 'task_abcdefghijklmnopqrstuvwxyz', status: 'submitted', created_at: '2026-01-02T03:04:05.000Z' });
    const { signal, requestId, key, http, ...call } = stub.submits[0];
    // The call holds its HTTP request (the access log and traces read it there).
    expect(http?.headers).toBeDefined();
    expect(signal).toBeInstanceOf(AbortSignal);
    expect(key.id).toBe('key-1');
    expect(call).toEqual({
      surface: 'videogen2',
      operation: 'video.generate',
      publicBaseUrl: server.base,
      callback: { url: 'https://client.example/h' },
      request: { model: MODEL, prompt: 'a kite', seconds: 10, resolution: '1080p' },
    });
  });

  it('create: image_url becomes the first frame, fetched with the guards and keeping its URL', async () => {
    await post('/videogen2/video', { model: 'videogen2-video-1', prompt: 'the cat walks', image_url: IMAGE_URL, aspect_ratio: '9:16' });
    expect(stub.fetched).toEqual([IMAGE_URL]);
    const request = stub.submits[0].request;
    expect(request).toMatchObject({ model: 'videogen2-video-1', seconds: 5, aspectRatio: '9:16', imageRoles: ['first_frame'] });
    expect(request.images).toHaveLength(1);
    expect(request.images?.[0]).toMatchObject({ mediaType: 'image/png', width: 4, height: 3, sourceUrl: IMAGE_URL });

    await post('/videogen2/video', { model: MODEL, prompt: 'p', image_url: PNG_DATA_URL });
    expect(stub.submits[1].request.images?.[0]).toMatchObject({ mediaType: 'image/png', width: 1, height: 1 });
    expect(stub.submits[1].request.images?.[0].sourceUrl).toBeUndefined();
  });

  it('create: answers invalid fields with OpenAI-shaped 400s naming the field, fetching and submitting nothing', async () => {
    const cases: Array<[Record<string, unknown>, string, string]> = [
      [{ prompt: 'p' }, 'model: is required', 'model'],
      [{ model: MODEL }, 'prompt: is required', 'prompt'],
      [{ model: MODEL, prompt: 'p', duration: 30 }, 'duration: must be ≤ 20, got 30', 'duration'],
      [{ model: MODEL, prompt: 'p', resolution: '4k' }, 'resolution: must be one of "720p", "1080p", got "4k"', 'resolution'],
      [{ model: MODEL, prompt: 'p', image_url: 5 }, 'image_url: expected a string, got a number', 'image_url'],
      [{ model: MODEL, prompt: 'p', resolution: '4k', image_url: IMAGE_URL }, 'resolution: must be one of "720p", "1080p", got "4k"', 'resolution'],
    ];
    for (const [body, message, param] of cases) {
      const response = await post('/videogen2/video', body);
      expect(response.status, message).toBe(400);
      expect(await response.json()).toEqual({ error: { message, type: 'invalid_request_error', param, code: null } });
    }
    expect(stub.fetched).toEqual([]);
    expect(stub.submits).toHaveLength(0);
  });

  it('create: an image the gateway cannot fetch is a 400 on image_url', async () => {
    const response = await post('/videogen2/video', { model: MODEL, prompt: 'p', image_url: 'https://img.example/missing.png' });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: { param: 'image_url', code: 'image_fetch_failed' } });
    expect(stub.submits).toHaveLength(0);
  });

  it('create: a provider’s refusal of the image names image_url', async () => {
    stub.fail.submit = new GatewayError('invalid_request', 'images[0]: this model makes videos from text only', { param: 'images[0]' });
    const response = await post('/videogen2/video', { model: MODEL, prompt: 'p', image_url: IMAGE_URL });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: { param: 'image_url', message: 'image_url: this model makes videos from text only' } });
  });

  it('answers a missing key with 401 before reading the body', async () => {
    const response = await post('/videogen2/video', { model: MODEL, prompt: 'p' }, {});
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ error: { type: 'invalid_request_error', code: 'invalid_api_key' } });
    expect(stub.submits).toHaveLength(0);
  });

  it('lookup: maps every canonical status to videogen2’s word', async () => {
    for (const [status, word] of wordsByStatus('submitted submitted processing succeeded failed failed')) {
      stub.tasks.set('task_2', videoTask('videogen2', 'task_2', 'key-1', { status }));
      expect(((await (await get('/videogen2/video/task_2')).json()) as { status: string }).status, status).toBe(word);
    }
  });

  it('lookup: a succeeded task links the download route and echoes duration and resolution', async () => {
    stub.tasks.set(
      'task_done',
      videoTask('videogen2', 'task_done', 'key-1', {
        model: MODEL,
        request: { model: MODEL, prompt: 'p', seconds: 5, resolution: '720p' },
        status: 'succeeded',
        result: VIDEO_RESULT,
        updatedAt: T0 + 30_000,
      }),
    );
    expect(await (await get('/videogen2/video/task_done')).json()).toEqual({
      id: 'task_done',
      model: MODEL,
      status: 'succeeded',
      video_url: `${server.base}/v1/videos/task_done/download`,
      duration: 5,
      resolution: '720p',
      error: null,
      created_at: '2026-01-02T03:04:05.000Z',
      updated_at: '2026-01-02T03:04:35.000Z',
    });
  });

  it('lookup: a failed task carries its reason', async () => {
    stub.tasks.set(
      'task_bad',
      videoTask('videogen2', 'task_bad', 'key-1', { status: 'failed', error: { code: 'upstream_failed', message: 'the prompt was refused' } }),
    );
    expect(await (await get('/videogen2/video/task_bad')).json()).toMatchObject({ status: 'failed', video_url: null, error: 'the prompt was refused' });
  });

  it('lookup and cancel: unknown ids, another key’s tasks and other families’ tasks answer the same 404', async () => {
    for (const [path, key] of unservedLookups(stub, 'videogen2', 'videogen1', (id) => `/videogen2/video/${id}`)) {
      for (const response of [await get(path, key), await del(path, key)]) {
        expect(response.status, path).toBe(404);
        expect(await response.json()).toMatchObject({ error: { type: 'invalid_request_error', code: 'task_not_found' } });
      }
    }
    expect(stub.cancels).toEqual([]);
  });

  it('cancel: cancels the caller’s task and answers it as failed', async () => {
    stub.tasks.set('task_run', videoTask('videogen2', 'task_run', 'key-1', { status: 'running' }));
    const response = await del('/videogen2/video/task_run');
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ id: 'task_run', status: 'failed', error: 'canceled by the client' });
    expect(stub.cancels).toEqual(['task_run']);
  });
});
