import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../core/errors.js';
import { IMAGE_URL, VIDEO_RESULT, surfaceUnderTest, unservedLookups, videoSurfaceStub, videoTask } from '../../../test/helpers/video-surface-stub.js';
import { wordsByStatus } from '../../../test/helpers/words-by-status.js';
import { videogen3Surface } from './index.js';

describe('videogen3Surface', () => {
  const stub = videoSurfaceStub('videogen3');
  const { server, post, get } = surfaceUnderTest(videogen3Surface, stub);

  it('generate: submits a video task and answers 201 with a queued Luma generation', async () => {
    const response = await post('/videogen3/generate', {
      prompt: 'a tiger in snow',
      aspect_ratio: '9:16',
      resolution: '720p',
      duration: '9s',
      loop: true,
      callback_url: 'https://client.example/luma',
    });
    expect(response.status).toBe(201);
    expect(await response.json()).toEqual({
      id: 'task_abcdefghijklmnopqrstuvwxyz',
      generation_type: 'video',
      state: 'queued',
      failure_reason: null,
      created_at: '2026-01-02T03:04:05.000Z',
      assets: null,
      model: 'videogen3-ray-2',
      request: {
        generation_type: 'video',
        prompt: 'a tiger in snow',
        model: 'videogen3-ray-2',
        aspect_ratio: '9:16',
        resolution: '720p',
        duration: '9s',
        loop: true,
        callback_url: 'https://client.example/luma',
      },
    });
    const { signal, requestId, key, http, ...call } = stub.submits[0];
    // The call holds its HTTP request (the access log and traces read it there).
    expect(http?.headers).toBeDefined();
    expect(call).toEqual({
      surface: 'videogen3',
      operation: 'video.generate',
      publicBaseUrl: server.base,
      callback: { url: 'https://client.example/luma' },
      request: { model: 'videogen3-ray-2', prompt: 'a tiger in snow', seconds: 9, aspectRatio: '9:16', resolution: '720p', options: { loop: true } },
    });
  });

  it('generate: the prompt alone takes the defaults; keyframes become first and last frames', async () => {
    await post('/videogen3/generate', { prompt: 'p' });
    expect(stub.submits[0].request).toEqual({ model: 'videogen3-ray-2', prompt: 'p', seconds: 5 });
    await post('/videogen3/generate', { prompt: 'p', model: 'videogen3-ray-flash-2', keyframes: { frame1: { type: 'image', url: IMAGE_URL } } });
    expect(stub.submits[1].request).toMatchObject({ model: 'videogen3-ray-flash-2', imageRoles: ['last_frame'] });
    expect(stub.submits[1].request.images?.[0].sourceUrl).toBe(IMAGE_URL);
  });

  it('generate: answers invalid fields with 400 {detail} naming the field, submitting nothing', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{}, 'prompt: is required'],
      [{ prompt: '' }, 'prompt: must not be empty'],
      [{ prompt: 'p', duration: 5 }, 'duration: expected seconds written like "5s", got 5'],
      [{ prompt: 'p', duration: '30s' }, 'duration: must be between 1 and 20 seconds, got 30'],
      [{ prompt: 'p', duration: '0s' }, 'duration: must be between 1 and 20 seconds, got 0'],
      [{ prompt: 'p', aspect_ratio: '2:1' }, 'aspect_ratio: must be one of "1:1", "16:9", "9:16", "4:3", "3:4", "21:9", "9:21", got "2:1"'],
      [{ prompt: 'p', resolution: '8k' }, 'resolution: must be one of "540p", "720p", "1080p", "4k", got "8k"'],
      [{ prompt: 'p', loop: 'yes' }, 'loop: expected a boolean, got a string'],
      [{ prompt: 'p', keyframes: { frame2: {} } }, 'keyframes: only frame0 and frame1 are accepted, got "frame2"'],
      [{ prompt: 'p', keyframes: { frame0: { type: 'generation', id: 'x' } } }, 'keyframes.frame0.type: extending a generation is not offered; give an image'],
      [{ prompt: 'p', keyframes: { frame0: { type: 'image' } } }, 'keyframes.frame0.url: is required'],
    ];
    for (const [body, detail] of cases) {
      const response = await post('/videogen3/generate', body);
      expect(response.status, detail).toBe(400);
      expect(await response.json()).toEqual({ detail });
    }
    expect(stub.submits).toHaveLength(0);
  });

  it('generate: a provider’s refusal names the client’s field; a missing key is a 401 {detail}', async () => {
    stub.fail.submit = new GatewayError('invalid_request', 'aspectRatio: this model makes 16:9 videos only', { param: 'aspectRatio' });
    const refused = await post('/videogen3/generate', { prompt: 'p', aspect_ratio: '1:1' });
    expect(await refused.json()).toEqual({ detail: 'aspect_ratio: this model makes 16:9 videos only' });
    const missing = await post('/videogen3/generate', { prompt: 'p' }, {});
    expect(missing.status).toBe(401);
    expect(await missing.json()).toEqual({ detail: 'missing API key' });
  });

  it('lookup: maps every canonical status to Luma’s state', async () => {
    for (const [status, state] of wordsByStatus('queued queued dreaming completed failed failed')) {
      stub.tasks.set('task_2', videoTask('videogen3', 'task_2', 'key-1', { status }));
      expect(((await (await get('/videogen3/task/task_2')).json()) as { state: string }).state, status).toBe(state);
    }
  });

  it('lookup: a completed generation links the download route; a failed one says why', async () => {
    stub.tasks.set('task_done', videoTask('videogen3', 'task_done', 'key-1', { model: 'videogen3-ray-2', status: 'succeeded', result: VIDEO_RESULT }));
    expect(await (await get('/videogen3/task/task_done')).json()).toMatchObject({
      state: 'completed',
      failure_reason: null,
      assets: { video: `${server.base}/v1/videos/task_done/download` },
      request: { prompt: 'waves at dusk', aspect_ratio: '16:9', duration: '5s' },
    });
    stub.tasks.set('task_bad', videoTask('videogen3', 'task_bad', 'key-1', { status: 'failed', error: { code: 'upstream_failed', message: 'moderation' } }));
    expect(await (await get('/videogen3/task/task_bad')).json()).toMatchObject({ state: 'failed', failure_reason: 'moderation', assets: null });
  });

  it('lookup: unknown ids, another key’s tasks and other families’ tasks answer the same 404 {detail}', async () => {
    for (const [path, key] of unservedLookups(stub, 'videogen3', 'videogen1', (id) => `/videogen3/task/${id}`)) {
      const response = await get(path, key);
      expect(response.status, path).toBe(404);
      expect(((await response.json()) as { detail: string }).detail).toMatch(/^no video task with id /);
    }
  });
});
