/**
 * Every video family through real HTTP against the vendors' fakes: videogen1 on MiniMax,
 * videogen2 on Ark (image-to-video), videogen3 on Luma, `/v1/video/generations` on Runway and —
 * any model from any surface — a MiniMax model through `/v1/video/generations`. Each result is
 * downloaded from the gateway (whole and by `Range`) and compared byte for byte with what the
 * fake made, after the vendor's link expired; a vendor failure reaches the client and is refunded.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAKE_ARK_KEY, type FakeArkUpstream, startFakeArkUpstream } from '../fakes/fake-ark-upstream.js';
import { FAKE_LUMA_KEY, type FakeLumaUpstream, startFakeLumaUpstream } from '../fakes/fake-luma-upstream.js';
import { FAKE_MINIMAX_KEY, type FakeMinimaxUpstream, startFakeMinimaxUpstream } from '../fakes/fake-minimax-upstream.js';
import { FAKE_RUNWAY_KEY, type FakeRunwayUpstream, startFakeRunwayUpstream } from '../fakes/fake-runway-upstream.js';
import { type RunningGateway, startGateway } from '../helpers/start-gateway.js';

// biome-ignore lint/suspicious/noExplicitAny: answers are read field by field, as a client would
type Answer = any;

let gw: RunningGateway;
let minimax: FakeMinimaxUpstream;
let ark: FakeArkUpstream;
let luma: FakeLumaUpstream;
let runway: FakeRunwayUpstream;
let images: Server;
let imageUrl: string;

async function call(method: string, path: string, body?: unknown): Promise<{ status: number; json: Answer }> {
  const response = await fetch(`${gw.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${gw.key}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, json: await response.json() };
}

async function until(path: string, done: (json: Answer) => boolean): Promise<Answer> {
  for (let i = 0; i < 300; i++) {
    const { json } = await call('GET', path);
    if (done(json)) return json;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`${path} did not finish`);
}

async function download(url: string, headers: Record<string, string> = {}): Promise<{ status: number; bytes: Buffer; headers: Headers }> {
  const response = await fetch(url, { headers: { authorization: `Bearer ${gw.key}`, ...headers } });
  return { status: response.status, bytes: Buffer.from(await response.arrayBuffer()), headers: response.headers };
}

async function upstreamIdOf(taskId: string): Promise<string> {
  return (await gw.gateway.tasks.repository.get(taskId))!.upstreamId!;
}

beforeAll(async () => {
  const png = await sharp({ create: { width: 640, height: 360, channels: 3, background: { r: 20, g: 120, b: 200 } } })
    .png()
    .toBuffer();
  images = createServer((_req, res) => res.writeHead(200, { 'content-type': 'image/png' }).end(png));
  await new Promise<void>((resolve) => images.listen(0, '127.0.0.1', resolve));
  imageUrl = `http://127.0.0.1:${(images.address() as AddressInfo).port}/frame.png`;
  minimax = await startFakeMinimaxUpstream({ taskMs: 300 });
  ark = await startFakeArkUpstream({ queuedMs: 100, runningMs: 200 });
  luma = await startFakeLumaUpstream({ queuedMs: 100, processingMs: 300 });
  runway = await startFakeRunwayUpstream({ pendingMs: 100, processingMs: 300 });
  const fast = { pollIntervalMs: 100 };
  gw = await startGateway({
    media: { allowPrivateUrls: true },
    channels: [
      {
        name: 'minimax',
        provider: 'minimax',
        baseUrl: minimax.url,
        apiKey: FAKE_MINIMAX_KEY,
        models: ['videogen1-*'],
        modelRewrite: [{ from: 'videogen1-', to: '' }],
        options: fast,
      },
      {
        name: 'ark',
        provider: 'ark',
        baseUrl: ark.url,
        apiKey: FAKE_ARK_KEY,
        models: ['videogen2-*'],
        modelMap: { 'videogen2-1-0-lite': 'doubao-seedance-1-0-lite' },
        modelRewrite: [{ from: 'videogen2-', to: 'doubao-seedance-' }],
        options: fast,
      },
      {
        name: 'luma',
        provider: 'luma',
        baseUrl: luma.url,
        apiKey: FAKE_LUMA_KEY,
        models: ['videogen3-*'],
        modelRewrite: [{ from: 'videogen3-', to: '' }],
        options: fast,
      },
      { name: 'runway', provider: 'runway', baseUrl: runway.url, apiKey: FAKE_RUNWAY_KEY, models: ['gen4_turbo'], options: fast },
    ],
  });
});
afterAll(async () => {
  await gw?.close();
  await Promise.all([minimax?.close(), ark?.close(), luma?.close(), runway?.close()]);
  images?.close();
});

describe('video families against the vendor fakes', () => {
  it('videogen1 on MiniMax: pending at once, then a gateway video_url that serves the vendor bytes, whole and by range', async () => {
    const created = await call('POST', '/videogen1/video', { prompt: 'waves at sunset' });
    expect(created.json).toMatchObject({ code: 0, data: { task_id: expect.any(String), status: 'pending' } });
    const id = created.json.data.task_id;
    const done = await until(`/videogen1/video/${id}`, (json) => ['succeeded', 'failed'].includes(json.data?.status));
    expect(done.data.status).toBe('succeeded');
    expect(done.data.video_url).toBe(`${gw.url}/v1/videos/${id}/download`);
    minimax.expireFiles();
    const expected = minimax.videoOf(await upstreamIdOf(id));
    const whole = await download(done.data.video_url);
    expect(whole.status).toBe(200);
    expect(whole.headers.get('content-type')).toBe('video/mp4');
    expect(whole.bytes.equals(expected)).toBe(true);
    const part = await download(done.data.video_url, { range: 'bytes=8-99' });
    expect(part.status).toBe(206);
    expect(part.bytes.equals(expected.subarray(8, 100))).toBe(true);
    const ledger = await gw.gateway.tasks.repository.ledger(id);
    expect(ledger.map((entry) => entry.kind)).toEqual(['reserve', 'settle']);
  });

  it('any model from any surface: a MiniMax model through /v1/video/generations', async () => {
    const created = await call('POST', '/v1/video/generations', { model: 'videogen1-video-01', content: [{ type: 'text', text: 'a paper boat' }] });
    expect(created.json).toMatchObject({ id: expect.any(String), status: 'submitted' });
    const done = await until(`/v1/video/generations/${created.json.id}`, (json) => ['succeeded', 'failed'].includes(json.status));
    expect(done.status).toBe('succeeded');
    expect(minimax.submits().at(-1)?.body).toMatchObject({ model: 'video-01', prompt: 'a paper boat' });
    const video = await download(done.content.video_url);
    expect(video.bytes.equals(minimax.videoOf(await upstreamIdOf(created.json.id)))).toBe(true);
  });

  it('videogen2 on Ark: an image makes it image-to-video, with Ark parameters in the text', async () => {
    const created = await call('POST', '/videogen2/video', { model: 'videogen2-1-0-lite', prompt: 'the sea moves', image_url: imageUrl, resolution: '720p' });
    expect(created.json).toMatchObject({ id: expect.any(String), status: 'submitted' });
    const done = await until(`/videogen2/video/${created.json.id}`, (json) => ['succeeded', 'failed'].includes(json.status));
    expect(done.status).toBe('succeeded');
    const submit = ark.requests.find((r) => r.method === 'POST' && r.path.endsWith('/contents/generations/tasks'));
    expect(submit?.body).toMatchObject({ model: 'doubao-seedance-1-0-lite-i2v-250428' });
    expect(JSON.stringify(submit?.body)).toContain('--resolution 720p');
    ark.expireVideos();
    const video = await download(done.video_url);
    expect(video.status).toBe(200);
    expect(video.bytes.subarray(4, 8).toString('latin1')).toBe('ftyp');
  });

  it('videogen3 on Luma: the generation shape, and the lookup', async () => {
    const created = await call('POST', '/videogen3/generate', { prompt: 'a fox in snow' });
    expect(created.status).toBe(201);
    expect(created.json).toMatchObject({ id: expect.any(String), state: 'queued' });
    const done = await until(`/videogen3/task/${created.json.id}`, (json) => ['completed', 'failed'].includes(json.state));
    expect(done.state).toBe('completed');
    luma.expireOutputs();
    const video = await download(done.assets.video);
    expect(video.bytes.equals(luma.videoBytes(await upstreamIdOf(created.json.id)))).toBe(true);
  });

  it('Runway through /v1/video/generations with a first frame', async () => {
    const created = await call('POST', '/v1/video/generations', {
      model: 'gen4_turbo',
      content: [
        { type: 'text', text: 'clouds drift --duration 5 --ratio 16:9' },
        { type: 'image_url', image_url: { url: imageUrl }, role: 'first_frame' },
      ],
    });
    const done = await until(`/v1/video/generations/${created.json.id}`, (json) => ['succeeded', 'failed'].includes(json.status));
    expect(done.status).toBe('succeeded');
    runway.expireOutputs();
    const video = await download(done.content.video_url);
    expect(video.bytes.equals(runway.videoBytes(await upstreamIdOf(created.json.id)))).toBe(true);
  });

  it("a vendor failure reaches the client with the vendor's reason and is refunded once", async () => {
    minimax.failNextTask('Video generation failed: content risk');
    const created = await call('POST', '/videogen1/video', { prompt: 'will fail' });
    const id = created.json.data.task_id;
    const done = await until(`/videogen1/video/${id}`, (json) => ['succeeded', 'failed'].includes(json.data?.status));
    expect(done.data.status).toBe('failed');
    expect(done.data.error).toContain('content risk');
    const ledger = await gw.gateway.tasks.repository.ledger(id);
    expect(ledger.map((entry) => entry.kind)).toEqual(['reserve', 'refund']);
    const notReady = await download(`${gw.url}/v1/videos/${id}/download`);
    expect(notReady.status).toBe(409);
  });

  it('refuses what a vendor cannot do with a 400 naming the client field', async () => {
    const answer = await call('POST', '/videogen1/video', { prompt: 'square please', aspect_ratio: '1:1' });
    expect(answer.status).toBe(400);
    expect(JSON.stringify(answer.json)).toContain('aspect_ratio');
  });
});
