/**
 * Issue 27, item 3: replicas sharing their media through S3-compatible object storage (s3rver,
 * started by the test). An image made through one gateway is served byte for byte by another
 * that shares only the bucket, with the same ETag, ranges and 304; presigned redirects when
 * configured; `/readyz` reports a bucket that is not there; a video task's result (MiniMax
 * fake) is streamed into the bucket and downloaded whole and by range. The local store's route
 * keeps the same Range, ETag and 304 behaviour.
 */
import { ListObjectsV2Command } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createS3Client } from '../src/media/s3-client.js';
import { FAKE_MINIMAX_KEY, type FakeMinimaxUpstream, startFakeMinimaxUpstream } from './fakes/fake-minimax-upstream.js';
import { type RunningS3Server, startS3Server } from './helpers/s3-server.js';
import { type RunningGateway, startGateway } from './helpers/start-gateway.js';

async function generateImage(gateway: RunningGateway): Promise<string> {
  const answer = await fetch(`${gateway.url}/v1/images/generations`, {
    method: 'POST',
    headers: { authorization: `Bearer ${gateway.key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'imagegen1-schnell', prompt: 'a red kite', size: '256x256', response_format: 'url' }),
  });
  const json = (await answer.json()) as { data: Array<{ url: string }> };
  expect(answer.status).toBe(200);
  return new URL(json.data[0].url).pathname;
}

async function bytesOf(answer: Response): Promise<Buffer> {
  return Buffer.from(await answer.arrayBuffer());
}

describe('media shared through S3-compatible object storage', () => {
  let s3: RunningS3Server;
  let a: RunningGateway;
  let b: RunningGateway;
  let presigning: RunningGateway;
  let noBucket: RunningGateway;
  let local: RunningGateway;
  let video: RunningGateway;
  let minimax: FakeMinimaxUpstream;
  beforeAll(async () => {
    minimax = await startFakeMinimaxUpstream({ taskMs: 200 });
    s3 = await startS3Server();
    a = await startGateway({ media: { store: 's3', s3: s3.settings } });
    b = await startGateway({ media: { store: 's3', s3: s3.settings } });
    presigning = await startGateway({ media: { store: 's3', s3: { ...s3.settings, presignSeconds: 120 } } });
    noBucket = await startGateway({ media: { store: 's3', s3: { ...s3.settings, bucket: 'no-such-bucket' } } });
    local = await startGateway();
    video = await startGateway({
      media: { store: 's3', s3: { ...s3.settings, prefix: 'videos/' }, allowPrivateUrls: true },
      channels: [
        {
          name: 'minimax',
          provider: 'minimax',
          baseUrl: minimax.url,
          apiKey: FAKE_MINIMAX_KEY,
          models: ['videogen1-*'],
          modelRewrite: [{ from: 'videogen1-', to: '' }],
          options: { pollIntervalMs: 100 },
        },
      ],
    });
  }, 60_000);
  afterAll(async () => {
    for (const gateway of [a, b, presigning, noBucket, local, video]) await gateway?.close();
    await minimax?.close();
    await s3?.close();
  });

  it('serves an image made through one replica from another, byte for byte, with the same ETag', async () => {
    const path = await generateImage(a);
    const fromA = await fetch(`${a.url}${path}`);
    const fromB = await fetch(`${b.url}${path}`);
    expect(fromA.status).toBe(200);
    expect(fromB.status).toBe(200);
    const bytes = await bytesOf(fromB);
    expect(bytes.length).toBeGreaterThan(100);
    expect(bytes.equals(await bytesOf(fromA))).toBe(true);
    expect(fromB.headers.get('content-type')).toMatch(/^image\//);
    expect(fromB.headers.get('content-length')).toBe(String(bytes.length));
    expect(fromB.headers.get('etag')).toBe(fromA.headers.get('etag'));
    expect(fromB.headers.get('accept-ranges')).toBe('bytes');
  });

  it('answers ranges, 416 past the end, 304 for a matching If-None-Match, and headers alone to HEAD', async () => {
    const path = await generateImage(a);
    const whole = await bytesOf(await fetch(`${a.url}${path}`));
    const first = await fetch(`${b.url}${path}`);
    await first.arrayBuffer();
    const etag = first.headers.get('etag') as string;

    const part = await fetch(`${b.url}${path}`, { headers: { range: 'bytes=10-29' } });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 10-29/${whole.length}`);
    expect((await bytesOf(part)).equals(whole.subarray(10, 30))).toBe(true);

    const tail = await fetch(`${b.url}${path}`, { headers: { range: 'bytes=-5' } });
    expect((await bytesOf(tail)).equals(whole.subarray(whole.length - 5))).toBe(true);

    const beyond = await fetch(`${b.url}${path}`, { headers: { range: `bytes=${whole.length}-` } });
    expect(beyond.status).toBe(416);
    expect(beyond.headers.get('content-range')).toBe(`bytes */${whole.length}`);
    await beyond.arrayBuffer();

    const stale = await fetch(`${b.url}${path}`, { headers: { range: 'bytes=0-9', 'if-range': '"another"' } });
    expect(stale.status).toBe(200);
    expect((await bytesOf(stale)).length).toBe(whole.length);

    const unchanged = await fetch(`${b.url}${path}`, { headers: { 'if-none-match': etag } });
    expect(unchanged.status).toBe(304);
    expect((await bytesOf(unchanged)).length).toBe(0);

    const head = await fetch(`${b.url}${path}`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe(String(whole.length));
  });

  it('answers an unknown or malformed name with a 404 on every replica', async () => {
    const missing = await fetch(`${b.url}/media/${'a'.repeat(32)}.png`);
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as { error: { code: string } }).error.code).toBe('media_not_found');
    expect((await fetch(`${b.url}/media/..%2F..%2Fsecret.png`)).status).toBe(404);
  });

  it('redirects to a short-lived presigned link when presigning is configured, after its own checks', async () => {
    const path = await generateImage(a);
    const whole = await bytesOf(await fetch(`${a.url}${path}`));
    const answer = await fetch(`${presigning.url}${path}`, { redirect: 'manual' });
    expect(answer.status).toBe(302);
    expect(answer.headers.get('cache-control')).toBe('no-store');
    const location = answer.headers.get('location') as string;
    expect(location.startsWith(`${s3.endpoint}/${s3.bucket}/media/`)).toBe(true);
    expect(location).toContain('X-Amz-Expires=120');
    expect((await bytesOf(await fetch(location))).equals(whole)).toBe(true);
    expect((await fetch(`${presigning.url}/media/${'b'.repeat(32)}.png`, { redirect: 'manual' })).status).toBe(404);
    const etag = answer.headers.get('etag') as string;
    expect((await fetch(`${presigning.url}${path}`, { redirect: 'manual', headers: { 'if-none-match': etag } })).status).toBe(304);
  });

  it('reports a replica whose bucket does not exist as not ready, and one whose bucket answers as ready', async () => {
    const ready = await fetch(`${b.url}/readyz`);
    expect(ready.status).toBe(200);
    const notReady = await fetch(`${noBucket.url}/readyz`);
    expect(notReady.status).toBe(503);
    expect(((await notReady.json()) as { checks: Record<string, string> }).checks.media).toMatch(/no-such-bucket does not exist/);
  });

  it('serves the local store with the same ranges, ETag and 304', async () => {
    const path = await generateImage(local);
    const whole = await fetch(`${local.url}${path}`);
    const bytes = await bytesOf(whole);
    const etag = whole.headers.get('etag') as string;
    expect(etag).toBe(`"${path.slice('/media/'.length)}"`);
    const part = await fetch(`${local.url}${path}`, { headers: { range: 'bytes=0-3' } });
    expect(part.status).toBe(206);
    expect((await bytesOf(part)).equals(bytes.subarray(0, 4))).toBe(true);
    expect((await fetch(`${local.url}${path}`, { headers: { 'if-none-match': `W/${etag}` } })).status).toBe(304);
  });

  it('keeps a finished video task result in the bucket and serves it whole and by range', async () => {
    const headers = { authorization: `Bearer ${video.key}`, 'content-type': 'application/json' };
    const created = await fetch(`${video.url}/videogen1/video`, { method: 'POST', headers, body: JSON.stringify({ prompt: 'waves at sunset' }) });
    const id = ((await created.json()) as { data: { task_id: string } }).data.task_id;
    let status = '';
    for (let i = 0; i < 300 && status !== 'succeeded' && status !== 'failed'; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      status = ((await (await fetch(`${video.url}/videogen1/video/${id}`, { headers })).json()) as { data: { status: string } }).data.status;
    }
    expect(status).toBe('succeeded');
    minimax.expireFiles();
    const expected = minimax.videoOf((await video.gateway.tasks.repository.get(id))!.upstreamId!);
    const client = createS3Client(s3.settings);
    const listed = await client.send(new ListObjectsV2Command({ Bucket: s3.bucket, Prefix: 'videos/' }));
    client.destroy();
    expect(listed.Contents?.map((object) => object.Size)).toEqual([expected.length]);
    const whole = await fetch(`${video.url}/v1/videos/${id}/download`, { headers });
    expect(whole.status).toBe(200);
    expect((await bytesOf(whole)).equals(expected)).toBe(true);
    const part = await fetch(`${video.url}/v1/videos/${id}/download`, { headers: { ...headers, range: 'bytes=8-99' } });
    expect(part.status).toBe(206);
    expect((await bytesOf(part)).equals(expected.subarray(8, 100))).toBe(true);
  });
});
