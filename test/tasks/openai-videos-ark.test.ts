/**
 * An Ark (Seedance) model through the OpenAI videos surface, driven by the official `openai`
 * SDK against a real gateway and the fake Ark API: the task is created once, followed to
 * `completed`, its video served byte for byte from the gateway's media store (whole, by range,
 * through `/content` and the spec's `/download`) after the vendor's URL expired, listed and
 * deleted; another key sees none of it.
 */
import OpenAI, { toFile } from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAKE_ARK_KEY, type FakeArkUpstream, fakeArkVideoBytes, startFakeArkUpstream } from '../fakes/fake-ark-upstream.js';
import { type RunningGateway, startGateway } from '../helpers/start-gateway.js';
import { PNG_DATA_URL } from '../helpers/video-surface-stub.js';

let gw: RunningGateway;
let ark: FakeArkUpstream;
let client: OpenAI;
/** The gateway takes any whole number of seconds from 1 to 20; the SDK's type lists OpenAI's own lengths. */
const seconds = (value: string) => value as OpenAI.Videos.VideoSeconds;

async function untilFinished(id: string): Promise<OpenAI.Videos.Video> {
  for (let i = 0; i < 200; i++) {
    const video = await client.videos.retrieve(id);
    if (video.status === 'completed' || video.status === 'failed') return video;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`video ${id} did not finish`);
}

beforeAll(async () => {
  ark = await startFakeArkUpstream({ queuedMs: 100, runningMs: 200 });
  gw = await startGateway({
    media: { allowPrivateUrls: true },
    channels: [
      {
        name: 'ark',
        provider: 'ark',
        baseUrl: ark.url,
        apiKey: FAKE_ARK_KEY,
        models: ['videogen2-1-0-lite'],
        modelMap: { 'videogen2-1-0-lite': 'doubao-seedance-1-0-lite' },
        options: { pollIntervalMs: 20 },
      },
    ],
  });
  client = new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: gw.key, maxRetries: 0 });
});
afterAll(async () => {
  await gw?.close();
  await ark?.close();
});

describe('an Ark model through the OpenAI videos surface', () => {
  it('creates, completes, downloads (whole and by range, after the vendor URL expired), lists and deletes', async () => {
    const created = await client.videos.create({ model: 'videogen2-1-0-lite', prompt: 'a red fox runs through snow', seconds: seconds('5'), size: '1280x720' });
    expect(created).toMatchObject({ id: expect.stringMatching(/^video_[a-z2-7]{26}$/), object: 'video', model: 'videogen2-1-0-lite', seconds: '5' });
    expect(['queued', 'in_progress']).toContain(created.status);
    const creates = ark.requests.filter((request) => request.method === 'POST' && request.path.endsWith('/contents/generations/tasks'));
    expect(creates).toHaveLength(1);
    const text = JSON.stringify(creates[0].body);
    for (const flag of ['--resolution 720p', '--ratio 16:9', '--duration 5']) expect(text).toContain(flag);

    const done = await untilFinished(created.id);
    expect(done).toMatchObject({ status: 'completed', progress: 100, error: null });
    expect(done.completed_at).toEqual(expect.any(Number));
    expect(done.expires_at).toBeGreaterThan(Date.now() / 1000);

    const [upstreamId] = [...ark.tasks.keys()];
    const bytes = fakeArkVideoBytes(upstreamId);
    ark.expireVideos();
    const whole = await client.videos.downloadContent(created.id);
    expect(whole.headers.get('content-type')).toBe('video/mp4');
    expect(Buffer.from(await whole.arrayBuffer()).equals(bytes)).toBe(true);
    const partial = await client.videos.downloadContent(created.id, {}, { headers: { Range: 'bytes=4-11' } });
    expect(partial.status).toBe(206);
    expect(partial.headers.get('content-range')).toBe(`bytes 4-11/${bytes.length}`);
    expect(Buffer.from(await partial.arrayBuffer()).toString('latin1')).toBe('ftypisom');
    const download = await fetch(`${gw.url}/v1/videos/${created.id}/download`, { headers: { authorization: `Bearer ${gw.key}`, range: 'bytes=-10' } });
    expect(download.status).toBe(206);
    expect(Buffer.from(await download.arrayBuffer()).equals(bytes.subarray(bytes.length - 10))).toBe(true);
    expect(download.headers.get('etag')).toMatch(/^"[0-9a-f]{64}"$/);

    const listed: string[] = [];
    for await (const video of client.videos.list()) listed.push(video.id);
    expect(listed).toEqual([created.id]);

    const otherKey = await gw.createKey({ name: 'other' });
    const other = new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: otherKey, maxRetries: 0 });
    await expect(other.videos.retrieve(created.id)).rejects.toMatchObject({ status: 404 });
    await expect(other.videos.downloadContent(created.id)).rejects.toMatchObject({ status: 404 });
    expect((await other.videos.list()).data).toEqual([]);

    expect(await client.videos.delete(created.id)).toEqual({ id: created.id, object: 'video.deleted', deleted: true });
    await expect(client.videos.retrieve(created.id)).rejects.toMatchObject({ status: 404, code: 'video_not_found' });
    const gone = await fetch(`${gw.url}/v1/videos/${created.id}/download`, { headers: { authorization: `Bearer ${gw.key}` } });
    expect(gone.status).toBe(404);
  });

  it('a refusal by the model names the field the client sent, and nothing reaches Ark', async () => {
    await expect(client.videos.create({ model: 'videogen2-1-0-lite', prompt: 'p', size: '1280x720', seconds: seconds('20') })).rejects.toMatchObject({
      status: 400,
      param: 'seconds',
    });
    const tinyPng = await toFile(Buffer.from(PNG_DATA_URL.slice(PNG_DATA_URL.indexOf(',') + 1), 'base64'), 'one-pixel.png');
    await expect(client.videos.create({ model: 'videogen2-1-0-lite', prompt: 'p', input_reference: tinyPng })).rejects.toMatchObject({
      status: 400,
      param: 'input_reference',
    });
    expect(ark.requests.filter((request) => request.method === 'POST')).toHaveLength(1);
  });
});
