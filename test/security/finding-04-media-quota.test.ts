/**
 * Issue 23, finding 4: media storage had no quota — one key wrote about 22 MiB in 15 s of image
 * calls. Now every stored file counts against its account's quotas (bytes kept, bytes written per
 * UTC day) and the store's global cap, where the oldest files are evicted. Real gateways with the
 * sandbox, a fake OpenAI images upstream and a fake Replicate: an account over its quota is
 * refused in the surface's own shape (before the upstream runs), another account's calls still
 * succeed and are stored, the cap evicts oldest first, a task whose result cannot be kept ends
 * with the reason (refunded), and the daily count resets with the UTC day (injected clock, on
 * SQLite and on PostgreSQL).
 */
import { mkdtempSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newAccount } from '../../src/admin/setup-links.js';
import { LocalMediaStore } from '../../src/media/local-media-store.js';
import { QuotaMediaStore } from '../../src/media/quota-media-store.js';
import { sandboxMediaLimits } from '../../src/sandbox/sandbox-media-limits.js';
import { chooseVideoShape } from '../../src/sandbox/video/choose-video-shape.js';
import { MediaFilesRepository } from '../../src/store/media-files-repository.js';
import { openStore } from '../../src/store/open-store.js';
import { FAKE_OPENAI_IMAGES_KEY, type FakeOpenAIImagesUpstream, startFakeOpenAIImagesUpstream } from '../fakes/fake-openai-images-upstream.js';
import { FAKE_REPLICATE_TOKEN, type FakeReplicateUpstream, startFakeReplicateUpstream } from '../fakes/fake-replicate-upstream.js';
import { createTempDatabase } from '../helpers/postgres.js';
import { type RunningGateway, startGateway } from '../helpers/start-gateway.js';

// biome-ignore lint/suspicious/noExplicitAny: answers are read field by field, as a client would
type Answer = any;

const KiB = 1024;
const DAY_MS = 86_400_000;

async function accountKey(gw: RunningGateway, email: string): Promise<{ key: string; accountId: string }> {
  const account = newAccount(email, 'member');
  await gw.gateway.accounts.insert(account);
  return { key: await gw.createKey({ name: email, accountId: account.id }), accountId: account.id };
}

async function post(gw: RunningGateway, path: string, key: string, body: unknown): Promise<{ status: number; json: Answer }> {
  const response = await fetch(`${gw.url}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, json: await response.json() };
}

function generate(gw: RunningGateway, key: string, prompt: string, extra: Record<string, unknown> = {}) {
  return post(gw, '/v1/images/generations', key, { model: 'imagegen1-schnell', prompt, size: '256x256', ...extra });
}

async function downloaded(url: string): Promise<number> {
  const response = await fetch(url);
  const bytes = (await response.arrayBuffer()).byteLength;
  return response.status === 200 ? bytes : -response.status;
}

function bytesOnDisk(dir: string): number {
  return readdirSync(dir).reduce((sum, name) => sum + statSync(join(dir, name)).size, 0);
}

describe('finding 4: per-account media quota, refused in the surface shape while other accounts go on', () => {
  const QUOTA = 512 * KiB;
  let gw: RunningGateway;
  let upstream: FakeOpenAIImagesUpstream;

  beforeAll(async () => {
    upstream = await startFakeOpenAIImagesUpstream();
    gw = await startGateway({
      media: { quotaBytesPerAccount: QUOTA, dailyBytesPerAccount: 0, maxTotalBytes: 0 },
      channels: [
        {
          name: 'openai-images',
          provider: 'openai',
          baseUrl: upstream.url,
          apiKey: FAKE_OPENAI_IMAGES_KEY,
          models: ['textmodel-b-image-1'],
          modelMap: { 'textmodel-b-image-1': 'dall-e-2' },
        },
      ],
    });
  });
  afterAll(async () => {
    await gw?.close();
    await upstream?.close();
  });

  it('a flooding account gets 429 media_quota_exceeded in OpenAI shape, keeps at most its quota; another account is served and stored', async () => {
    const flooder = await accountKey(gw, 'flood@example.com');
    const other = await accountKey(gw, 'other@example.com');
    const stored: string[] = [];
    let refused: { status: number; json: Answer } | undefined;
    for (let i = 0; i < 40 && !refused; i++) {
      const answer = await generate(gw, flooder.key, `flood ${i}`);
      if (answer.status === 200) stored.push(answer.json.data[0].url);
      else refused = answer;
    }
    expect(stored.length).toBeGreaterThan(0);
    expect(refused?.status).toBe(429);
    expect(refused?.json).toEqual({
      error: { message: expect.stringContaining('Media quota reached'), type: expect.any(String), param: null, code: 'media_quota_exceeded' },
    });
    const kept = await Promise.all(stored.map(downloaded));
    expect(kept.every((bytes) => bytes > 0)).toBe(true);
    expect(kept.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(QUOTA);

    // Refused before the upstream is called: the routed model's upstream sees nothing.
    const before = upstream.requests.length;
    const routed = await post(gw, '/v1/images/generations', flooder.key, { model: 'textmodel-b-image-1', prompt: 'x', size: '256x256' });
    expect(routed.status).toBe(429);
    expect(upstream.requests.length).toBe(before);

    // Nothing stored, nothing refused: base64 answers still work for the full account.
    expect((await generate(gw, flooder.key, 'inline', { response_format: 'b64_json' })).status).toBe(200);

    for (let i = 0; i < 3; i++) {
      const answer = await generate(gw, other.key, `other ${i}`);
      expect(answer.status).toBe(200);
      expect(await downloaded(answer.json.data[0].url)).toBeGreaterThan(0);
    }
  });

  it('a task whose result cannot be kept ends failed with the reason and refunded; the next submit is refused in its envelope', async () => {
    const replicate: FakeReplicateUpstream = await startFakeReplicateUpstream({ processingMs: 400 });
    const tasksGw = await startGateway({
      media: { quotaBytesPerAccount: QUOTA, dailyBytesPerAccount: 0, maxTotalBytes: 0, allowPrivateUrls: true },
      channels: [
        {
          name: 'replicate-tasks',
          provider: 'replicate',
          baseUrl: replicate.url,
          apiKey: FAKE_REPLICATE_TOKEN,
          models: ['*/*'],
          options: { pollIntervalMs: 100, webhookSecret: replicate.webhookSecret },
        },
      ],
    });
    try {
      const owner = await accountKey(tasksGw, 'tasks@example.com');
      const created = await post(tasksGw, '/imagegen1/create', owner.key, { model: 'black-forest-labs/flux-schnell', prompt: 'a fox' });
      expect(created.status).toBe(201);
      // The account fills its quota while the task runs.
      await tasksGw.gateway.media.put(Buffer.alloc(QUOTA), 'image/png', owner.accountId);
      let record: Answer;
      for (let i = 0; i < 100; i++) {
        const response = await fetch(`${tasksGw.url}/imagegen1/task/${created.json.id}`, { headers: { authorization: `Bearer ${owner.key}` } });
        record = await response.json();
        if (['succeeded', 'failed', 'canceled'].includes(record.status)) break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(record.status).toBe('failed');
      expect(record.error).toContain('Media quota reached');
      const ledger = await tasksGw.gateway.tasks.repository.ledger(created.json.id);
      expect(ledger.map((entry) => entry.kind)).toEqual(['reserve', 'refund']);

      const creates = replicate.requests.filter((request) => request.method === 'POST').length;
      const again = await post(tasksGw, '/imagegen1/create', owner.key, { model: 'black-forest-labs/flux-schnell', prompt: 'again' });
      expect(again.status).toBe(429);
      expect(again.json).toMatchObject({ status: 429, detail: expect.stringContaining('Media quota reached') });
      expect(replicate.requests.filter((request) => request.method === 'POST').length).toBe(creates);
    } finally {
      await tasksGw.close();
      await replicate.close();
    }
  });
});

describe('finding 4: the global media cap evicts the oldest files first', () => {
  const CAP = 160 * KiB;
  let gw: RunningGateway;

  beforeAll(async () => {
    gw = await startGateway({ media: { quotaBytesPerAccount: 0, dailyBytesPerAccount: 0, maxTotalBytes: CAP } });
  });
  afterAll(async () => {
    await gw?.close();
  });

  it('keeps the newest files within the cap, whoever wrote the oldest', async () => {
    const first = await accountKey(gw, 'first@example.com');
    const second = await accountKey(gw, 'second@example.com');
    const urls: string[] = [];
    for (const [who, count] of [
      [first, 4],
      [second, 6],
    ] as const) {
      for (let i = 0; i < count; i++) {
        const answer = await generate(gw, who.key, `${who.accountId} ${i}`);
        expect(answer.status).toBe(200);
        urls.push(answer.json.data[0].url);
        expect(bytesOnDisk(gw.gateway.config.media.dir as string)).toBeLessThanOrEqual(CAP);
      }
    }
    const alive = (await Promise.all(urls.map(downloaded))).map((bytes) => bytes > 0);
    expect(alive[0]).toBe(false);
    expect(alive[alive.length - 1]).toBe(true);
    // Oldest first: the files still served are the newest ones, in one run to the end.
    const firstAlive = alive.indexOf(true);
    expect(alive.slice(firstAlive).every(Boolean)).toBe(true);
    expect(alive.slice(0, firstAlive).some(Boolean)).toBe(false);
  });
});

describe.each([
  ['SQLite', false],
  ['PostgreSQL', true],
])('finding 4: the daily media quota resets with the UTC day (%s)', (_name, onPostgres) => {
  it("refuses past the day's bytes with a Retry-After to midnight, and takes writes again the next day", async () => {
    const temp = onPostgres ? await createTempDatabase() : undefined;
    const store = await openStore(temp?.url ?? 'sqlite::memory:');
    let now = Date.UTC(2026, 0, 10, 23, 0, 0);
    const media = new QuotaMediaStore({
      files: new LocalMediaStore(mkdtempSync(join(tmpdir(), 'gengate-quota-')), 7 * DAY_MS),
      index: new MediaFilesRepository(store.db),
      settings: { quotaBytesPerAccount: 0, dailyBytesPerAccount: 100 * KiB, maxTotalBytes: 0, retentionMs: 7 * DAY_MS },
      now: () => now,
    });
    try {
      await media.put(Buffer.alloc(60 * KiB), 'image/png', 'acc_a');
      const refused = await media.put(Buffer.alloc(60 * KiB), 'image/png', 'acc_a').catch((error: unknown) => error);
      expect(refused).toMatchObject({ kind: 'insufficient_quota', status: 429, code: 'media_daily_quota_exceeded', retryAfter: 3600 });
      // A stream (a video) is cut when it passes the day's bytes, and nothing of it is kept.
      const streamed = await media
        .putStream(Readable.from([Buffer.alloc(30 * KiB, 1), Buffer.alloc(30 * KiB, 1)]), () => 'video/mp4', 'acc_a')
        .catch((error: unknown) => error);
      expect(streamed).toMatchObject({ code: 'media_daily_quota_exceeded' });
      // Another owner has its own day.
      await media.put(Buffer.alloc(60 * KiB), 'image/png', 'acc_b');
      now += 2 * 3_600_000;
      await media.put(Buffer.alloc(60 * KiB), 'image/png', 'acc_a');
    } finally {
      await media.close();
      await store.close();
      await temp?.drop();
    }
  });
});

describe('finding 4: the sandbox media sizes are bounded by configuration', () => {
  it('refuses an image side past sandbox.maxImageSide in the surface shape', async () => {
    const gw = await startGateway({ sandbox: { maxImageSide: 512 } });
    try {
      const big = await post(gw, '/v1/images/generations', gw.key, { model: 'imagegen1-schnell', prompt: 'x', size: '1024x1024' });
      expect(big.status).toBe(400);
      expect(big.json.error).toMatchObject({ param: 'size', message: expect.stringContaining('1 to 512 pixels') });
      const fits = await post(gw, '/v1/images/generations', gw.key, { model: 'imagegen1-schnell', prompt: 'x', size: '512x512' });
      expect(fits.status).toBe(200);
    } finally {
      await gw.close();
    }
  });

  it('bounds a sandbox video by sandbox.maxVideoShortSide and sandbox.maxVideoSeconds, within what the sandbox can make', () => {
    const limits = sandboxMediaLimits({ maxVideoShortSide: 480, maxVideoSeconds: 4, maxImageSide: 100_000 });
    expect(limits).toMatchObject({ maxVideoShortSide: 480, maxVideoSeconds: 4, maxImageSide: 4096 });
    expect(chooseVideoShape({}, limits)).toMatchObject({ width: 854, height: 480, seconds: 4 });
    expect(() => chooseVideoShape({ resolution: '720p' }, limits)).toThrow(/144p to 480p/);
    expect(() => chooseVideoShape({ seconds: 5 }, limits)).toThrow(/1 to 4 seconds/);
  });
});
