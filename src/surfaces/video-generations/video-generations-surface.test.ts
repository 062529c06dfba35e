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
import { videoGenerationsSurface } from './index.js';

const MODEL = 'videogen2-1-0-lite-i2v-250428';
const PATH = '/v1/video/generations';

describe('videoGenerationsSurface', () => {
  const stub = videoSurfaceStub('video-generations');
  const { server, post, get, del } = surfaceUnderTest(videoGenerationsSurface, stub);

  it('create: reads the flags out of the prompt, loads the images with their roles and answers {id, status: submitted}', async () => {
    const response = await post(PATH, {
      model: MODEL,
      content: [
        { type: 'text', text: '[Image1] becomes [Image2] --duration 6 --ratio 16:9 --resolution 720p --seed 1 --wm false' },
        { type: 'image_url', image_url: { url: IMAGE_URL }, role: 'first_frame' },
        { type: 'image_url', image_url: { url: PNG_DATA_URL }, role: 'last_frame' },
      ],
      callback_url: 'https://client.example/cb',
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ id: 'task_abcdefghijklmnopqrstuvwxyz', status: 'submitted' });
    const { signal, requestId, key, http, request, ...call } = stub.submits[0];
    // The call holds its HTTP request (the access log and traces read it there).
    expect(http?.headers).toBeDefined();
    expect(call).toEqual({
      surface: 'video-generations',
      operation: 'video.generate',
      publicBaseUrl: server.base,
      callback: { url: 'https://client.example/cb' },
    });
    const { images, ...fields } = request;
    expect(fields).toEqual({
      model: MODEL,
      prompt: '[Image1] becomes [Image2]',
      seconds: 6,
      aspectRatio: '16:9',
      resolution: '720p',
      seed: 1,
      options: { watermark: false },
      imageRoles: ['first_frame', 'last_frame'],
    });
    expect(images?.map((image) => image.sourceUrl)).toEqual([IMAGE_URL, undefined]);
    expect(stub.fetched).toEqual([IMAGE_URL]);
  });

  it('create: text alone is text-to-video with the default 5 seconds', async () => {
    await post(PATH, { model: 'videogen2-1-0-lite-t2v-250428', content: [{ type: 'text', text: 'a quiet lake' }] });
    expect(stub.submits[0].request).toEqual({ model: 'videogen2-1-0-lite-t2v-250428', prompt: 'a quiet lake', seconds: 5 });
  });

  it('create: answers invalid requests with OpenAI-shaped 400s naming the field, submitting nothing', async () => {
    const cases: Array<[unknown, string, string]> = [
      [{ content: [{ type: 'text', text: 'a' }] }, 'model: is required', 'model'],
      [{ model: MODEL }, 'content: is required', 'content'],
      [
        { model: MODEL, content: [{ type: 'text', text: 'a --duration 21' }] },
        'content[0].text: --duration must be between 1 and 20, got 21',
        'content[0].text',
      ],
      [
        {
          model: MODEL,
          content: [
            { type: 'text', text: 'a' },
            { type: 'image_url', image_url: {} },
          ],
        },
        'content[1].image_url.url: is required',
        'content[1].image_url.url',
      ],
      [{ model: MODEL, content: [{ type: 'text', text: 'a' }], callback_url: 'http://x' }, 'callback_url must be an http or https URL', 'callback_url'],
    ];
    for (const [body, message, param] of cases) {
      const response = await post(PATH, body);
      expect(response.status, message).toBe(400);
      expect(await response.json()).toMatchObject({ error: { message, type: 'invalid_request_error', param } });
    }
    const refused = await post(PATH, { model: MODEL, content: [{ type: 'image_url', image_url: { url: 'https://img.example/nope.png' } }] });
    expect(await refused.json()).toMatchObject({ error: { param: 'content[0].image_url.url' } });
    expect(stub.submits).toHaveLength(0);
  });

  it('create: a provider’s refusal names the element the client wrote', async () => {
    stub.fail.submit = new GatewayError('invalid_request', 'imageRoles[1]: this model takes no last frame', { param: 'imageRoles[1]' });
    const content = [
      { type: 'image_url', image_url: { url: IMAGE_URL }, role: 'first_frame' },
      { type: 'text', text: 'p' },
      { type: 'image_url', image_url: { url: IMAGE_URL }, role: 'last_frame' },
    ];
    const roles = await post(PATH, { model: MODEL, content });
    expect(await roles.json()).toMatchObject({ error: { param: 'content[2].role', message: 'content[2].role: this model takes no last frame' } });
    stub.fail.submit = new GatewayError('invalid_request', 'aspectRatio: 21:9 is not offered', { param: 'aspectRatio' });
    const ratio = await post(PATH, { model: MODEL, content });
    expect(await ratio.json()).toMatchObject({ error: { param: 'content[1].text', message: 'content[1].text: 21:9 is not offered' } });
  });

  it('lookup: maps every canonical status and answers Ark’s shape with Unix seconds', async () => {
    for (const [status, word] of wordsByStatus('submitted submitted processing succeeded failed failed')) {
      stub.tasks.set('task_2', videoTask('video-generations', 'task_2', 'key-1', { status }));
      expect(((await (await get(`${PATH}/task_2`)).json()) as { status: string }).status, status).toBe(word);
    }
    stub.tasks.set(
      'task_done',
      videoTask('video-generations', 'task_done', 'key-1', { model: MODEL, status: 'succeeded', result: VIDEO_RESULT, updatedAt: T0 + 45_500 }),
    );
    expect(await (await get(`${PATH}/task_done`)).json()).toEqual({
      id: 'task_done',
      model: MODEL,
      status: 'succeeded',
      content: { video_url: `${server.base}/v1/videos/task_done/download` },
      usage: { completion_tokens: 0, total_tokens: 0 },
      error: null,
      duration: 5,
      ratio: '16:9',
      created_at: T0 / 1000,
      updated_at: T0 / 1000 + 45,
    });
  });

  it('lookup: a failed task carries {code, message} and no content', async () => {
    stub.tasks.set(
      'task_bad',
      videoTask('video-generations', 'task_bad', 'key-1', { status: 'failed', error: { code: 'content_policy', message: 'the image was refused' } }),
    );
    const body = (await (await get(`${PATH}/task_bad`)).json()) as Record<string, unknown>;
    expect(body).toMatchObject({ status: 'failed', error: { code: 'content_policy', message: 'the image was refused' } });
    expect(body.content).toBeUndefined();
  });

  it('lookup and cancel: unknown ids, another key’s tasks and other families’ tasks answer the same 404', async () => {
    for (const [path, key] of unservedLookups(stub, 'video-generations', 'videogen3', (id) => `${PATH}/${id}`, 'bad%20id')) {
      for (const response of [await get(path, key), await del(path, key)]) {
        expect(response.status, path).toBe(404);
        expect(await response.json()).toMatchObject({ error: { code: 'task_not_found' } });
      }
    }
    expect(stub.cancels).toEqual([]);
  });

  it('cancel: cancels the caller’s task; a missing key is a 401', async () => {
    stub.tasks.set('task_run', videoTask('video-generations', 'task_run', 'key-1', { status: 'running' }));
    const response = await del(`${PATH}/task_run`);
    expect(await response.json()).toMatchObject({ id: 'task_run', status: 'failed', error: { code: 'canceled' } });
    expect((await post(PATH, { model: MODEL }, {})).status).toBe(401);
  });
});
