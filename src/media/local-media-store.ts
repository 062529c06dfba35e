import { createReadStream } from 'node:fs';
import { mkdir, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { randomId } from '../core/ids.js';
import { MEDIA_EXTENSIONS, MEDIA_NAME, MEDIA_TYPES, type MediaStore, type StoredMedia } from './media-store.js';

const SWEEP_EVERY_MS = 10 * 60 * 1000;

/** Media on the local disk; a file's age (mtime) decides its expiry. */
export class LocalMediaStore implements MediaStore {
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

  async open(name: string): Promise<StoredMedia | undefined> {
    if (!MEDIA_NAME.test(name)) return undefined;
    const path = join(this.dir, name);
    const info = await stat(path).catch(() => undefined);
    if (!info) return undefined;
    const expiresAt = info.mtimeMs + this.retentionMs;
    if (expiresAt <= Date.now()) return undefined;
    const extension = name.slice(name.lastIndexOf('.') + 1);
    return { body: createReadStream(path), mediaType: MEDIA_TYPES[extension], size: info.size, expiresAt };
  }

  async sweep(): Promise<number> {
    const names = await readdir(this.dir).catch(() => [] as string[]);
    const cutoff = Date.now() - this.retentionMs;
    let removed = 0;
    for (const name of names) {
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
