import OpenAI, { toFile } from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { withVideoFiles } from '../../../test/helpers/video-files-stub.js';
import {
  IMAGE_URL,
  OTHER_VIDEO_KEY,
  PNG_DATA_URL,
  T0,
  VIDEO_KEY,
  serveSurface,
  videoClient,
  videoSurfaceStub,
  videoTask,
} from '../../../test/helpers/video-surface-stub.js';
import { wordsByStatus } from '../../../test/helpers/words-by-status.js';
import { GatewayError } from '../../core/errors.js';
import type { MediaRef, Task } from '../../core/task.js';
import { registerVideoDownloadRoute } from '../../http/video-files/video-download-route.js';
import { renderOpenAIError } from '../openai/render-error.js';
import { openaiVideosSurface } from './index.js';

const MODEL = 'videogen2-1-0-lite';
const NEW_ID = 'video_abcdefghijklmnopqrstuvwxyz';
/** A "video" of 100 000 bytes that differ from their neighbours, so every slice is checkable. */
const VIDEO_BYTES = Buffer.from(Array.from({ length: 100_000 }, (_, i) => (i * 7 + (i >> 8)) & 0xff));
const THUMB_BYTES = Buffer.from(PNG_DATA_URL.slice(PNG_DATA_URL.indexOf(',') + 1), 'base64');

async function thrown(promise: Promise<unknown>): Promise<InstanceType<typeof OpenAI.APIError>> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(OpenAI.APIError);
  return error as InstanceType<typeof OpenAI.APIError>;
}

describe('openaiVideosSurface', () => {
  const stub = videoSurfaceStub('openai-videos', NEW_ID);
  const files = withVideoFiles(stub);
  let server: { base: string; close: () => Promise<void> };
  let client: OpenAI;
  let other: OpenAI;
  const { post, get } = videoClient(() => server.base);

  beforeAll(async () => {
    // The download route is registered beside the surface, as the gateway does.
    const download = {
      authenticate: (presented: string | undefined) => stub.services.authenticate(presented),
      tasks: stub.services.tasks,
      render: renderOpenAIError,
    };
    server = await serveSurface(openaiVideosSurface, stub.services, (app) => registerVideoDownloadRoute(app, download));
    client = new OpenAI({ baseURL: `${server.base}/v1`, apiKey: VIDEO_KEY, maxRetries: 0 });
    other = new OpenAI({ baseURL: `${server.base}/v1`, apiKey: OTHER_VIDEO_KEY, maxRetries: 0 });
  });
  afterAll(async () => {
    await server.close();
  });
  beforeEach(() => {
    stub.reset();
    files.reset();
  });

  /** A finished task of `surface` whose result is the test video (and, when asked, a thumbnail). */
  function finished(id: string, options: { surface?: Task['surface']; thumbnail?: boolean; video?: Partial<MediaRef>; expiresAt?: number } = {}): Task {
    const video = {
      ...files.store(`${id}.mp4`, 'video', 'video/mp4', VIDEO_BYTES, options.expiresAt),
      seconds: 8.04,
      width: 1280,
      height: 720,
      ...options.video,
    };
    const media = options.thumbnail ? [video, files.store(`${id}.png`, 'image', 'image/png', THUMB_BYTES)] : [video];
    const task = videoTask(options.surface ?? 'openai-videos', id, 'key-1', {
      status: 'succeeded',
      progress: 1,
      result: { media },
      finishedAt: T0 + 60_000,
      updatedAt: T0 + 60_000,
    });
    stub.tasks.set(id, task);
    return task;
  }

  describe('create', () => {
    it('submits the SDK’s multipart request: seconds as a string, size as ratio and resolution; answers the Video', async () => {
      const video = await client.videos.create({ model: MODEL, prompt: 'a kite over hills', seconds: '8', size: '1280x720' });
      expect(video).toEqual({
        id: NEW_ID,
        object: 'video',
        model: MODEL,
        status: 'in_progress',
        progress: 0,
        created_at: Math.floor(T0 / 1000),
        completed_at: null,
        expires_at: null,
        prompt: 'a kite over hills',
        size: '1280x720',
        seconds: '8',
        error: null,
        remixed_from_video_id: null,
      });
      const { signal, requestId, key, http, ...call } = stub.submits[0];
      // The call holds its HTTP request (the access log and traces read it there).
      expect(http?.headers).toBeDefined();
      expect(key.id).toBe('key-1');
      expect(call).toEqual({
        surface: 'openai-videos',
        operation: 'video.generate',
        publicBaseUrl: server.base,
        request: { model: MODEL, prompt: 'a kite over hills', seconds: 8, width: 1280, height: 720, aspectRatio: '16:9', resolution: '720p' },
      });
    });

    it('leaves seconds and size to the model when absent, and accepts any whole number of seconds up to 20', async () => {
      const video = await client.videos.create({ model: MODEL, prompt: 'p' });
      expect(video).toMatchObject({ size: null, seconds: null });
      expect(stub.submits[0].request).toEqual({ model: MODEL, prompt: 'p' });
      await client.videos.create({ model: MODEL, prompt: 'p', seconds: '5' as OpenAI.Videos.VideoSeconds, size: '720x1280' });
      expect(stub.submits[1].request).toMatchObject({ seconds: 5, aspectRatio: '9:16', resolution: '720p' });
    });

    it('takes an uploaded input_reference file as the first frame', async () => {
      await client.videos.create({ model: MODEL, prompt: 'the cat walks', input_reference: await toFile(THUMB_BYTES, 'cat.png', { type: 'image/png' }) });
      const request = stub.submits[0].request;
      expect(request.imageRoles).toEqual(['first_frame']);
      expect(request.images?.[0]).toMatchObject({ mediaType: 'image/png', width: 1, height: 1, filename: 'cat.png' });
      expect(Buffer.from(request.images?.[0].data ?? [])).toEqual(THUMB_BYTES);
      expect(stub.fetched).toEqual([]);
    });

    it('takes input_reference {image_url} from the SDK (a form field) and from JSON, fetched with the guards', async () => {
      await client.videos.create({ model: MODEL, prompt: 'p', input_reference: { image_url: IMAGE_URL } });
      expect(stub.fetched).toEqual([IMAGE_URL]);
      expect(stub.submits[0].request.images?.[0]).toMatchObject({ mediaType: 'image/png', width: 4, height: 3, sourceUrl: IMAGE_URL });

      const response = await post('/v1/videos', { model: MODEL, prompt: 'p', seconds: 4, input_reference: { image_url: PNG_DATA_URL } });
      expect(response.status).toBe(200);
      expect(await response.json()).toMatchObject({ id: NEW_ID, object: 'video', seconds: '4' });
      expect(stub.submits[1].request).toMatchObject({ seconds: 4, imageRoles: ['first_frame'] });
      expect(stub.submits[1].request.images?.[0]).toMatchObject({ mediaType: 'image/png', width: 1, height: 1 });
    });

    it('answers invalid fields with OpenAI-shaped 400s naming the field, submitting nothing', async () => {
      const cases: Array<[Record<string, unknown>, string, string]> = [
        [{ prompt: 'p' }, 'model: is required', 'model'],
        [{ model: MODEL }, 'prompt: is required', 'prompt'],
        [{ model: MODEL, prompt: ' ' }, 'prompt: must not be empty', 'prompt'],
        [{ model: MODEL, prompt: 'p', seconds: '30' }, 'seconds: must be between 1 and 20 seconds, got 30', 'seconds'],
        [{ model: MODEL, prompt: 'p', seconds: '4.5' }, 'seconds: expected a whole number of seconds such as "8"', 'seconds'],
        [{ model: MODEL, prompt: 'p', size: 'big' }, 'size: must be width x height in pixels such as "1280x720", got "big"', 'size'],
        [{ model: MODEL, prompt: 'p', input_reference: { file_id: 'file_1' } }, 'input_reference: file_id is not supported', 'input_reference'],
        [
          { model: MODEL, prompt: 'p', input_reference: { image_url: 'https://img.example/missing.png' } },
          'input_reference: the image could not be fetched',
          'input_reference',
        ],
      ];
      for (const [body, message, param] of cases) {
        const error = await thrown(client.videos.create(body as unknown as OpenAI.VideoCreateParams));
        expect(error.status, message).toBe(400);
        expect(error.param, message).toBe(param);
        expect(error.message, message).toContain(message);
      }
      expect(stub.submits).toHaveLength(0);
    });

    it('refuses uploads that are not one image', async () => {
      const notImage = await thrown(client.videos.create({ model: MODEL, prompt: 'p', input_reference: await toFile(Buffer.from('not an image'), 'x.png') }));
      expect(notImage).toMatchObject({ status: 400, param: 'input_reference' });

      const form = new FormData();
      form.append('model', MODEL);
      form.append('prompt', 'p');
      form.append('input_reference', new Blob([THUMB_BYTES]), 'a.png');
      form.append('input_reference', new Blob([THUMB_BYTES]), 'b.png');
      const two = await fetch(`${server.base}/v1/videos`, { method: 'POST', headers: { authorization: `Bearer ${VIDEO_KEY}` }, body: form });
      expect(two.status).toBe(400);
      expect(await two.json()).toMatchObject({ error: { param: 'input_reference', type: 'invalid_request_error' } });
      expect(stub.submits).toHaveLength(0);
    });

    it('renames a provider’s refusal of a canonical field to the field the client sent', async () => {
      stub.fail.submit = new GatewayError('invalid_request', 'aspectRatio: this model makes 16:9 videos only', { param: 'aspectRatio' });
      const error = await thrown(client.videos.create({ model: MODEL, prompt: 'p', size: '720x1280' }));
      expect(error).toMatchObject({ status: 400, param: 'size', message: expect.stringContaining('size: this model makes 16:9 videos only') });
    });

    it('answers a missing or wrong key with 401 before reading the body', async () => {
      const response = await post('/v1/videos', { model: MODEL, prompt: 'p' }, {});
      expect(response.status).toBe(401);
      expect(await response.json()).toMatchObject({ error: { type: 'invalid_request_error', code: 'invalid_api_key' } });
      const wrong = new OpenAI({ baseURL: `${server.base}/v1`, apiKey: 'nope', maxRetries: 0 });
      expect((await thrown(wrong.videos.create({ model: MODEL, prompt: 'p' }))).status).toBe(401);
      expect(stub.submits).toHaveLength(0);
    });
  });

  describe('retrieve', () => {
    it('maps every canonical status to OpenAI’s word and progress to whole percent', async () => {
      for (const [status, word] of wordsByStatus('queued queued in_progress completed failed failed')) {
        stub.tasks.set('video_s', videoTask('openai-videos', 'video_s', 'key-1', { status, progress: 0.426 }));
        const video = await client.videos.retrieve('video_s');
        expect(video.status, status).toBe(word);
        expect(video.progress, status).toBe(word === 'completed' ? 100 : 43);
      }
    });

    it('shows a completed video with its measured size and length, completion and expiry times', async () => {
      const expiresAt = Date.now() + 7_200_000;
      finished('video_done', { expiresAt });
      expect(await client.videos.retrieve('video_done')).toMatchObject({
        status: 'completed',
        progress: 100,
        completed_at: Math.floor((T0 + 60_000) / 1000),
        expires_at: Math.floor(expiresAt / 1000),
        size: '1280x720',
        seconds: '8',
        prompt: 'waves at dusk',
        error: null,
      });
      expect(files.opens).toEqual([{ mediaId: 'video_done.mp4' }]);
    });

    it('shows a failed or canceled video’s reason', async () => {
      stub.tasks.set(
        'video_bad',
        videoTask('openai-videos', 'video_bad', 'key-1', {
          status: 'failed',
          finishedAt: T0 + 1_000,
          error: { code: 'content_policy', message: 'the prompt was refused' },
        }),
      );
      expect(await client.videos.retrieve('video_bad')).toMatchObject({
        status: 'failed',
        completed_at: Math.floor((T0 + 1_000) / 1000),
        expires_at: null,
        error: { code: 'content_policy', message: 'the prompt was refused' },
      });
    });

    it('serves video tasks of every family, and 404s unknown ids, another key’s and non-video tasks alike', async () => {
      stub.tasks.set('task_v1', videoTask('videogen1', 'task_v1', 'key-1'));
      stub.tasks.set('video_mine', videoTask('openai-videos', 'video_mine', 'key-1'));
      stub.tasks.set('1234567890', { ...videoTask('imgtask', '1234567890', 'key-1'), operation: 'image.imagine' });
      expect((await client.videos.retrieve('task_v1')).id).toBe('task_v1');
      for (const [sdk, id] of [
        [client, 'video_none'],
        [other, 'video_mine'],
        [client, '1234567890'],
        [client, 'a.b'],
      ] as const) {
        const error = await thrown(sdk.videos.retrieve(id));
        expect(error.status, id).toBe(404);
        expect(error.code, id).toBe('video_not_found');
      }
    });
  });

  describe('list', () => {
    beforeEach(() => {
      for (let i = 0; i < 5; i++) stub.tasks.set(`video_${i}`, videoTask('openai-videos', `video_${i}`, 'key-1', { createdAt: T0 + i * 1000 }));
      stub.tasks.set('task_x', videoTask('videogen2', 'task_x', 'key-1', { createdAt: T0 + 10_000 }));
      stub.tasks.set('video_other', videoTask('openai-videos', 'video_other', 'key-2', { createdAt: T0 + 20_000 }));
      stub.tasks.set('1234567890', { ...videoTask('imgtask', '1234567890', 'key-1', { createdAt: T0 + 30_000 }), operation: 'image.imagine' });
    });

    it('pages through the caller’s videos newest first with the SDK’s cursor', async () => {
      const ids: string[] = [];
      for await (const video of client.videos.list({ limit: 2 })) ids.push(video.id);
      expect(ids).toEqual(['task_x', 'video_4', 'video_3', 'video_2', 'video_1', 'video_0']);
    });

    it('answers the list shape, oldest first with order=asc, after a given id', async () => {
      const response = await get('/v1/videos?order=asc&limit=2&after=video_1');
      expect(response.status).toBe(200);
      const body = (await response.json()) as { data: Array<{ id: string; object: string }> };
      expect({ ...body, data: body.data.map((video) => video.id) }).toEqual({
        object: 'list',
        data: ['video_2', 'video_3'],
        first_id: 'video_2',
        last_id: 'video_3',
        has_more: true,
      });
      expect(await (await get('/v1/videos?after=task_x&limit=100')).json()).toMatchObject({ has_more: false, first_id: 'video_4', last_id: 'video_0' });
      expect(await (await get('/v1/videos', OTHER_VIDEO_KEY)).json()).toMatchObject({ data: [{ id: 'video_other' }], has_more: false });
    });

    it('answers an empty page with null ids, and bad queries with 400s naming the parameter', async () => {
      stub.tasks.clear();
      expect(await (await get('/v1/videos')).json()).toEqual({ object: 'list', data: [], first_id: null, last_id: null, has_more: false });
      for (const [query, param] of [
        ['limit=0', 'limit'],
        ['limit=101', 'limit'],
        ['limit=ten', 'limit'],
        ['order=newest', 'order'],
        ['after=a%20b', 'after'],
        ['limit=1&limit=2', 'limit'],
      ]) {
        const response = await get(`/v1/videos?${query}`);
        expect(response.status, query).toBe(400);
        expect(await response.json()).toMatchObject({ error: { param, type: 'invalid_request_error' } });
      }
    });
  });

  describe('delete', () => {
    it('deletes the caller’s video and answers video.deleted', async () => {
      finished('video_done');
      expect(await client.videos.delete('video_done')).toEqual({ id: 'video_done', object: 'video.deleted', deleted: true });
      expect(files.removed).toEqual(['video_done']);
      expect((await thrown(client.videos.retrieve('video_done'))).status).toBe(404);
    });

    it('404s unknown ids, another key’s videos and non-video tasks, removing nothing', async () => {
      finished('video_done');
      stub.tasks.set('1234567890', { ...videoTask('imgtask', '1234567890', 'key-1'), operation: 'image.imagine' });
      for (const [sdk, id] of [
        [client, 'video_none'],
        [other, 'video_done'],
        [client, '1234567890'],
      ] as const) {
        const error = await thrown(sdk.videos.delete(id));
        expect(error.status, id).toBe(404);
        expect(error.code, id).toBe('video_not_found');
      }
      expect(files.removed).toEqual([]);
    });
  });

  describe('content and download', () => {
    const auth = (headers: Record<string, string> = {}) => ({ headers: { authorization: `Bearer ${VIDEO_KEY}`, ...headers } });
    const download = (id: string, headers?: Record<string, string>, method = 'GET') =>
      fetch(`${server.base}/v1/videos/${id}/download`, { method, ...auth(headers) });

    it('downloadContent answers the stored video byte for byte, with the download headers', async () => {
      const task = finished('video_done');
      const ref = task.result?.media[0] as MediaRef;
      const response = await client.videos.downloadContent('video_done');
      expect(response.status).toBe(200);
      expect(Buffer.from(await response.arrayBuffer()).equals(VIDEO_BYTES)).toBe(true);
      expect(
        Object.fromEntries(
          ['content-type', 'content-length', 'etag', 'accept-ranges', 'content-disposition', 'cache-control'].map((h) => [h, response.headers.get(h)]),
        ),
      ).toEqual({
        'content-type': 'video/mp4',
        'content-length': String(VIDEO_BYTES.length),
        etag: `"${ref.sha256}"`,
        'accept-ranges': 'bytes',
        'content-disposition': 'attachment; filename="video_done.mp4"',
        'cache-control': 'private',
      });
    });

    it('serves a single Range as 206 with Content-Range, byte for byte, through both routes', async () => {
      finished('video_done');
      const size = VIDEO_BYTES.length;
      const cases: Array<[string, number, number]> = [
        ['bytes=0-0', 0, 0],
        ['bytes=10-99', 10, 99],
        ['bytes=99000-', 99_000, size - 1],
        ['bytes=-100', size - 100, size - 1],
        ['bytes=65530-200000', 65_530, size - 1],
      ];
      for (const [range, start, end] of cases) {
        for (const response of [
          await client.videos.downloadContent('video_done', { variant: 'video' }, { headers: { Range: range } }),
          await download('video_done', { range }),
        ]) {
          expect(response.status, range).toBe(206);
          expect(response.headers.get('content-range'), range).toBe(`bytes ${start}-${end}/${size}`);
          expect(response.headers.get('content-length'), range).toBe(String(end - start + 1));
          expect(Buffer.from(await response.arrayBuffer()).equals(VIDEO_BYTES.subarray(start, end + 1)), range).toBe(true);
        }
      }
      expect(files.opens.at(-1)).toEqual({ mediaId: 'video_done.mp4', range: { start: 65_530, end: size - 1 } });
    });

    it('answers several ranges, a stale If-Range and an invalid Range with the whole file', async () => {
      finished('video_done');
      for (const headers of <Array<Record<string, string>>>[
        { range: 'bytes=0-9,20-29' },
        { range: 'bytes=0-9', 'if-range': '"stale"' },
        { range: 'bytes=9-0' },
      ]) {
        const response = await download('video_done', headers);
        expect(response.status, JSON.stringify(headers)).toBe(200);
        expect(Buffer.from(await response.arrayBuffer()).equals(VIDEO_BYTES)).toBe(true);
      }
      const tag = (await download('video_done', {}, 'HEAD')).headers.get('etag') as string;
      expect((await download('video_done', { range: 'bytes=0-9', 'if-range': tag })).status).toBe(206);
    });

    it('answers 416 with the size for a range past the end', async () => {
      finished('video_done');
      const response = await download('video_done', { range: `bytes=${VIDEO_BYTES.length}-` });
      expect(response.status).toBe(416);
      expect(response.headers.get('content-range')).toBe(`bytes */${VIDEO_BYTES.length}`);
      expect(await response.json()).toMatchObject({ error: { type: 'invalid_request_error', code: 'range_not_satisfiable' } });
    });

    it('answers 304 to a matching If-None-Match, without a body', async () => {
      finished('video_done');
      const tag = (await download('video_done')).headers.get('etag') as string;
      for (const condition of [tag, `"other", W/${tag}`, '*']) {
        const response = await download('video_done', { 'if-none-match': condition });
        expect(response.status, condition).toBe(304);
        expect(response.headers.get('etag')).toBe(tag);
        expect(await response.text()).toBe('');
      }
      expect((await download('video_done', { 'if-none-match': '"other"' })).status).toBe(200);
    });

    it('answers HEAD with the headers a GET would have, and no body', async () => {
      finished('video_done');
      const response = await download('video_done', { range: 'bytes=0-9' }, 'HEAD');
      expect(response.status).toBe(206);
      expect(response.headers.get('content-length')).toBe('10');
      expect(response.headers.get('content-type')).toBe('video/mp4');
      expect(await response.text()).toBe('');
      const whole = await fetch(`${server.base}/v1/videos/video_done/content`, { method: 'HEAD', ...auth() });
      expect(whole.headers.get('content-length')).toBe(String(VIDEO_BYTES.length));
    });

    it('uses the media id as the ETag when the file was not hashed', async () => {
      finished('video_plain', { video: { sha256: undefined } });
      expect((await download('video_plain')).headers.get('etag')).toBe('"video_plain.mp4"');
    });

    it('downloads video tasks of every family (the spec’s download route), and 404s others’ and non-video ids', async () => {
      finished('task_v1', { surface: 'videogen1' });
      const response = await download('task_v1');
      expect(response.status).toBe(200);
      expect(response.headers.get('content-disposition')).toBe('attachment; filename="task_v1.mp4"');
      expect(Buffer.from(await response.arrayBuffer()).equals(VIDEO_BYTES)).toBe(true);

      stub.tasks.set('1234567890', { ...videoTask('imgtask', '1234567890', 'key-1', { status: 'succeeded' }), operation: 'image.imagine' });
      for (const [id, key] of [
        ['task_none', VIDEO_KEY],
        ['task_v1', OTHER_VIDEO_KEY],
        ['1234567890', VIDEO_KEY],
        ['a.b', VIDEO_KEY],
      ]) {
        const missing = await fetch(`${server.base}/v1/videos/${id}/download`, { headers: { authorization: `Bearer ${key}` } });
        expect(missing.status, id).toBe(404);
        expect(await missing.json()).toMatchObject({ error: { type: 'invalid_request_error', code: 'video_not_found', param: null } });
      }
      expect((await fetch(`${server.base}/v1/videos/task_v1/download`)).status).toBe(401);
    });

    it('answers 409 while the task runs and when it failed, 410 once the file expired', async () => {
      stub.tasks.set('video_run', videoTask('openai-videos', 'video_run', 'key-1', { status: 'running' }));
      const running = await download('video_run');
      expect(running.status).toBe(409);
      expect(await running.json()).toEqual({
        error: {
          message: 'video "video_run" is not ready (status running); try again once it has completed',
          type: 'invalid_request_error',
          param: null,
          code: 'video_not_ready',
        },
      });
      const viaSdk = await thrown(client.videos.downloadContent('video_run'));
      expect(viaSdk).toMatchObject({ status: 409, code: 'video_not_ready', message: expect.stringContaining('(status in_progress)') });

      stub.tasks.set(
        'video_bad',
        videoTask('openai-videos', 'video_bad', 'key-1', { status: 'failed', error: { code: 'content_policy', message: 'the prompt was refused' } }),
      );
      const failed = await download('video_bad');
      expect(failed.status).toBe(409);
      expect(await failed.json()).toMatchObject({ error: { code: 'video_failed', message: 'video "video_bad" failed: the prompt was refused' } });

      finished('video_old', { expiresAt: Date.now() - 1 });
      const expired = await thrown(client.videos.downloadContent('video_old'));
      expect(expired).toMatchObject({ status: 410, code: 'video_expired' });
      expect((await download('video_old', { range: 'bytes=0-9' })).status).toBe(410);
    });

    it('serves the thumbnail variant when the task has one; none, and no spritesheet, is 404 variant_not_available', async () => {
      finished('video_thumb', { thumbnail: true });
      const thumbnail = await client.videos.downloadContent('video_thumb', { variant: 'thumbnail' });
      expect(thumbnail.headers.get('content-type')).toBe('image/png');
      expect(thumbnail.headers.get('content-disposition')).toBe('attachment; filename="video_thumb.png"');
      expect(Buffer.from(await thumbnail.arrayBuffer())).toEqual(THUMB_BYTES);

      finished('video_bare');
      for (const [id, variant] of [
        ['video_bare', 'thumbnail'],
        ['video_thumb', 'spritesheet'],
      ] as const) {
        const error = await thrown(client.videos.downloadContent(id, { variant }));
        expect(error, variant).toMatchObject({ status: 404, code: 'variant_not_available', param: 'variant' });
      }
      const bad = await get('/v1/videos/video_thumb/content?variant=poster');
      expect(bad.status).toBe(400);
      expect(await bad.json()).toMatchObject({ error: { param: 'variant' } });
    });
  });
});
