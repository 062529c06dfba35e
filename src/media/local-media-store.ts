import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { type Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { join } from 'node:path';
import { randomId } from '../core/ids.js';
import { type ByteRange, MEDIA_EXTENSIONS, MEDIA_NAME, MEDIA_TYPES, type MediaFiles, type StoredMedia, type StreamedMedia } from './media-store.js';

const SWEEP_EVERY_MS = 10 * 60 * 1000;

/** Media on the local disk; a file's age (mtime) decides its expiry. */
export class LocalMediaStore implements MediaFiles {
  private timer?: NodeJS.Timeout;
  private ready?: Promise<unknown>;

  constructor(
    private readonly dir: string,
    private readonly retentionMs: number,
  ) {}

  start(): void {
    this.timer = setInterval(() => void this.sweep().catch(() => undefined), SWEEP_EVERY_MS);
    this.timer.unref();
  }

  async put(data: Uint8Array, mediaType: string): Promise<string> {
    const extension = MEDIA_EXTENSIONS[mediaType];
    if (!extension) throw new Error(`media store: unsupported media type ${mediaType}`);
    this.ready ??= mkdir(this.dir, { recursive: true });
    await this.ready;
    const name = `${randomId(32)}.${extension}`;
    await writeFile(join(this.dir, name), data, { flag: 'wx' });
    return name;
  }

  async putStream(body: Readable, sniff: (head: Uint8Array) => string | undefined): Promise<StreamedMedia> {
    this.ready ??= mkdir(this.dir, { recursive: true });
    await this.ready;
    const temporary = join(this.dir, `.partial-${randomId(16)}`);
    const hash = createHash('sha256');
    let bytes = 0;
    let mediaType: string | undefined;
    const inspect = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        if (mediaType === undefined) {
          mediaType = sniff(chunk);
          if (!mediaType || !MEDIA_EXTENSIONS[mediaType]) return done(new Error('media store: the stream is not a supported media type'));
        }
        bytes += chunk.length;
        hash.update(chunk);
        done(null, chunk);
      },
    });
    try {
      await pipeline(body, inspect, createWriteStream(temporary, { flags: 'wx' }));
      if (!mediaType) throw new Error('media store: the stream was empty');
      const name = `${randomId(32)}.${MEDIA_EXTENSIONS[mediaType]}`;
      await rename(temporary, join(this.dir, name));
      return { name, mediaType, bytes, sha256: hash.digest('hex') };
    } catch (error) {
      await rm(temporary, { force: true });
      throw error;
    }
  }

  async open(name: string, range?: ByteRange): Promise<StoredMedia | undefined> {
    if (!MEDIA_NAME.test(name)) return undefined;
    const path = join(this.dir, name);
    const info = await stat(path).catch(() => undefined);
    if (!info) return undefined;
    const expiresAt = info.mtimeMs + this.retentionMs;
    if (expiresAt <= Date.now()) return undefined;
    const extension = name.slice(name.lastIndexOf('.') + 1);
    const body = range ? createReadStream(path, { start: range.start, end: range.end }) : createReadStream(path);
    return { body, mediaType: MEDIA_TYPES[extension], size: info.size, expiresAt };
  }

  async remove(name: string): Promise<void> {
    if (MEDIA_NAME.test(name)) await rm(join(this.dir, name), { force: true });
  }

  async sweep(): Promise<number> {
    const names = await readdir(this.dir).catch(() => [] as string[]);
    const cutoff = Date.now() - this.retentionMs;
    let removed = 0;
    for (const name of names) {
      if (name.startsWith('.partial-')) {
        // Left by a process that died mid-download; an hour is longer than any download runs.
        const info = await stat(join(this.dir, name)).catch(() => undefined);
        if (info && info.mtimeMs <= Date.now() - 3_600_000) await rm(join(this.dir, name), { force: true });
        continue;
      }
      if (!MEDIA_NAME.test(name)) continue;
      const path = join(this.dir, name);
      const info = await stat(path).catch(() => undefined);
      if (info && info.mtimeMs <= cutoff) {
        await rm(path, { force: true });
        removed++;
      }
    }
    return removed;
  }

  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
  }
}
