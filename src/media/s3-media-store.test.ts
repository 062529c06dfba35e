import { createHash, randomBytes } from 'node:crypto';
import { utimesSync } from 'node:fs';
import { Readable } from 'node:stream';
import { buffer, text } from 'node:stream/consumers';
import { ListObjectsV2Command, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningS3Server, startS3Server } from '../../test/helpers/s3-server.js';
import type { MediaIndex } from './media-index.js';
import { QuotaMediaStore } from './quota-media-store.js';
import { bucketNotReady, createS3Client } from './s3-client.js';
import { S3MediaStore, type S3MediaStoreOptions } from './s3-media-store.js';

const MP4_HEAD = Buffer.from([0, 0, 0, 0x18, 0x66, 0x74, 0x79, 0x70, 0x69, 0x73, 0x6f, 0x6d]);
const sniffMp4 = (head: Uint8Array) => (Buffer.from(head.subarray(4, 8)).toString() === 'ftyp' ? 'video/mp4' : undefined);

describe('S3MediaStore against a local S3-compatible server', () => {
  let s3: RunningS3Server;
  let client: S3Client;
  let uploadedParts = 0;
  const store = (options: Partial<S3MediaStoreOptions> = {}) => new S3MediaStore({ client, ...s3.settings, retentionMs: 60_000, ...options });
  const keysUnder = async (prefix: string) =>
    ((await client.send(new ListObjectsV2Command({ Bucket: s3.bucket, Prefix: prefix }))).Contents ?? []).map((object) => object.Key).sort();
  const age = (key: string, ms: number) => {
    const then = new Date(Date.now() - ms);
    utimesSync(s3.objectPath(key), then, then);
  };

  beforeAll(async () => {
    s3 = await startS3Server();
    client = createS3Client(s3.settings);
    client.middlewareStack.add(
      (next, context) => async (args) => {
        const answer = await next(args);
        if (context.commandName === 'UploadPartCommand') uploadedParts++;
        return answer;
      },
      { step: 'initialize' },
    );
  });
  afterAll(async () => {
    client?.destroy();
    await s3?.close();
  });

  it('stores bytes under an unguessable name in the prefix and serves them back with their type and size', async () => {
    const media = store();
    const name = await media.put(new TextEncoder().encode('png bytes'), 'image/png');
    expect(name).toMatch(/^[A-Za-z0-9]{32}\.png$/);
    expect(await media.put(new TextEncoder().encode('png bytes'), 'image/png')).not.toBe(name);
    expect(await keysUnder('media/')).toContain(`media/${name}`);
    const opened = await media.open(name);
    expect(opened?.mediaType).toBe('image/png');
    expect(opened?.size).toBe(9);
    expect(opened!.expiresAt).toBeGreaterThan(Date.now() + 50_000);
    expect(await text(opened!.body)).toBe('png bytes');
  });

  it('serves a byte range while reporting the whole size', async () => {
    const media = store();
    const name = await media.put(new TextEncoder().encode('0123456789'), 'image/webp');
    const part = await media.open(name, { start: 3, end: 6 });
    expect(part?.size).toBe(10);
    expect(await text(part!.body)).toBe('3456');
    const tail = await media.open(name, { start: 9, end: 9 });
    expect(await text(tail!.body)).toBe('9');
  });

  it('refuses names that are not its own, including path tricks, and unsupported types', async () => {
    const media = store();
    await client.send(new PutObjectCommand({ Bucket: s3.bucket, Key: 'secret.png', Body: 'outside the prefix' }));
    expect(await media.open('../secret.png')).toBeUndefined();
    expect(await media.open(`${'a'.repeat(32)}.exe`)).toBeUndefined();
    expect(await media.open(`${'a'.repeat(32)}.png`)).toBeUndefined();
    await expect(media.put(new Uint8Array(1), 'text/html')).rejects.toThrow(/unsupported/);
  });

  it('removes one file now', async () => {
    const media = store();
    const name = await media.put(new Uint8Array([1, 2]), 'image/gif');
    await media.remove(name);
    expect(await media.open(name)).toBeUndefined();
    await media.remove(name);
  });

  it('expires files after the retention and sweeps only its own expired objects away', async () => {
    const media = store({ prefix: 'sweep/' });
    const old = await media.put(new Uint8Array([1]), 'image/png');
    const fresh = await media.put(new Uint8Array([2]), 'image/jpeg');
    await client.send(new PutObjectCommand({ Bucket: s3.bucket, Key: 'sweep/not-media.txt', Body: 'x' }));
    age(`sweep/${old}`, 120_000);
    age('sweep/not-media.txt', 120_000);
    expect(await media.open(old)).toBeUndefined();
    expect(await store({ prefix: 'sweep/', sweep: false }).sweep()).toBe(0);
    expect(await keysUnder('sweep/')).toHaveLength(3);
    expect(await media.sweep()).toBe(1);
    expect(await keysUnder('sweep/')).toEqual([`sweep/${fresh}`, 'sweep/not-media.txt'].sort());
  });

  it('sweeps in pages when more objects expired than one listing holds', async () => {
    const media = store({ prefix: 'many/' });
    for (let batch = 0; batch < 1005 / 67; batch++) {
      const names = await Promise.all(Array.from({ length: 67 }, () => media.put(new Uint8Array([7]), 'image/png')));
      for (const name of names) age(`many/${name}`, 120_000);
    }
    expect(await media.sweep()).toBe(1005);
    expect(await keysUnder('many/')).toEqual([]);
  }, 60_000);

  it('uploads a long stream in parts while it is still being produced, and hashes it', async () => {
    const media = store({ prefix: 'video/' });
    const chunk = randomBytes(256 * 1024);
    const total = 48;
    const hash = createHash('sha256').update(MP4_HEAD);
    const partsAtStart = uploadedParts;
    async function* video(): AsyncGenerator<Buffer> {
      yield MP4_HEAD;
      for (let i = 0; i < total; i++) {
        // Past 11 MiB, go on only once a part has reached the server: a store that held the
        // whole stream before uploading would wait here forever.
        if (i === 44) {
          for (let wait = 0; uploadedParts === partsAtStart; wait++) {
            if (wait > 200) throw new Error('no part was uploaded while the stream was still open');
            await new Promise((resolve) => setTimeout(resolve, 50));
          }
        }
        hash.update(chunk);
        yield chunk;
      }
    }
    const stored = await media.putStream(Readable.from(video()), sniffMp4);
    expect(stored.mediaType).toBe('video/mp4');
    expect(stored.name).toMatch(/^[A-Za-z0-9]{32}\.mp4$/);
    expect(stored.bytes).toBe(MP4_HEAD.length + total * chunk.length);
    expect(stored.sha256).toBe(hash.digest('hex'));
    expect(uploadedParts - partsAtStart).toBeGreaterThanOrEqual(3);
    const opened = await media.open(stored.name);
    expect(opened?.size).toBe(stored.bytes);
    expect(
      createHash('sha256')
        .update(await buffer(opened!.body))
        .digest('hex'),
    ).toBe(stored.sha256);
    const range = await media.open(stored.name, { start: 4, end: 7 });
    expect(await text(range!.body)).toBe('ftyp');
  }, 60_000);

  it('refuses a stream it does not recognise, and keeps nothing of a stream that fails midway', async () => {
    const media = store({ prefix: 'failed/' });
    await expect(media.putStream(Readable.from([Buffer.from('<html>')]), sniffMp4)).rejects.toThrow(/not a supported media type/);
    await expect(media.putStream(Readable.from([]), sniffMp4)).rejects.toThrow(/empty/);
    async function* broken(): AsyncGenerator<Buffer> {
      yield MP4_HEAD;
      yield randomBytes(1024);
      throw new Error('upstream went away');
    }
    await expect(media.putStream(Readable.from(broken()), sniffMp4)).rejects.toThrow('upstream went away');
    expect(await keysUnder('failed/')).toEqual([]);
  });

  it('stops a stream at the owner quota mid-upload with the quota error, keeping nothing', async () => {
    const emptyIndex: MediaIndex = {
      add: async () => undefined,
      remove: async () => undefined,
      keptBytes: async () => 0,
      totalBytes: async () => 0,
      writtenOn: async () => 0,
      oldest: async () => [],
      forget: async () => undefined,
    };
    const quota = new QuotaMediaStore({
      files: store({ prefix: 'quota/' }),
      index: emptyIndex,
      settings: { quotaBytesPerAccount: 6 * 1024 * 1024, dailyBytesPerAccount: 0, maxTotalBytes: 0, retentionMs: 60_000 },
    });
    const chunk = randomBytes(256 * 1024);
    const video = Readable.from(
      (function* () {
        yield MP4_HEAD;
        for (let i = 0; i < 40; i++) yield chunk;
      })(),
    );
    await expect(quota.putStream(video, sniffMp4, 'account-1')).rejects.toMatchObject({ code: 'media_quota_exceeded' });
    expect(await keysUnder('quota/')).toEqual([]);
  });

  it('signs a short-lived link to an object when presigning is on, and none when it is off', async () => {
    const media = store({ presignSeconds: 60, retentionMs: 3_600_000 });
    const name = await media.put(new TextEncoder().encode('signed bytes'), 'image/png');
    const opened = await media.open(name);
    const url = await media.presignedUrl(name, opened!.expiresAt);
    expect(url).toMatch(/X-Amz-Expires=60\b/);
    const answer = await fetch(url!);
    expect(answer.status).toBe(200);
    expect(await answer.text()).toBe('signed bytes');
    expect(await media.presignedUrl(name, Date.now() + 10_000)).toMatch(/X-Amz-Expires=(9|10)\b/);
    expect(await store().presignedUrl(name, opened!.expiresAt)).toBeUndefined();
  });

  it('is ready when the bucket answers, and says why not when it does not exist', async () => {
    expect(await bucketNotReady(client, s3.bucket, 5_000)).toBeUndefined();
    expect(await bucketNotReady(client, 'no-such-bucket', 5_000)).toMatch(/does not exist/);
  });
});
