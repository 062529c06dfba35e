/**
 * The media store with owners: every file counts against its owner's quotas (bytes kept, bytes
 * written per UTC day) and the store's global cap, where the oldest files of the store are
 * evicted to make room. The files live in a `MediaFiles` backend; who owns what is kept in the
 * database (`media_files`), so quotas hold across restarts and processes sharing the store.
 *
 * Writes in progress are held in memory per owner and counted as if stored, so that concurrent
 * writes of one process cannot together pass a quota; processes sharing a database can pass it
 * by at most the writes they have in flight at the same moment.
 */
import { type Readable, Transform } from 'node:stream';
import type { MediaIndex } from './media-index.js';
import { dailyQuotaFull, keptQuotaFull, storeFull, utcDay } from './media-quota-errors.js';
import type { ByteRange, MediaFiles, MediaStore, StoredMedia, StreamedMedia } from './media-store.js';

const SWEEP_EVERY_MS = 10 * 60 * 1000;
/** Files looked at per eviction round. */
const EVICTION_BATCH = 64;
/** Daily counts kept for this many days (a day's count is only ever read on that day). */
const DAILY_DAYS_KEPT = 2;

interface MediaQuotaSettings {
  /** Bytes one owner may keep stored; 0: unlimited. */
  quotaBytesPerAccount: number;
  /** Bytes one owner may write per UTC day; 0: unlimited. */
  dailyBytesPerAccount: number;
  /** Bytes the whole store keeps; the oldest files go to make room. 0: unlimited. */
  maxTotalBytes: number;
  retentionMs: number;
}

interface QuotaMediaStoreOptions {
  files: MediaFiles;
  index: MediaIndex;
  settings: MediaQuotaSettings;
  now?: () => number;
  /** Told how many files an eviction removed. */
  onEvicted?: (files: number, bytes: number) => void;
}

export class QuotaMediaStore implements MediaStore {
  private readonly files: MediaFiles;
  private readonly index: MediaIndex;
  private readonly settings: MediaQuotaSettings;
  private readonly now: () => number;
  private readonly heldByOwner = new Map<string, number>();
  private heldTotal = 0;
  /** Evictions run one at a time, so two writes do not both evict for the same room. */
  private evicting: Promise<unknown> = Promise.resolve();
  private timer?: NodeJS.Timeout;

  constructor(private readonly options: QuotaMediaStoreOptions) {
    this.files = options.files;
    this.index = options.index;
    this.settings = options.settings;
    this.now = options.now ?? Date.now;
  }

  start(): void {
    this.timer = setInterval(() => void this.sweep().catch(() => undefined), SWEEP_EVERY_MS);
    this.timer.unref();
  }

  async checkRoom(owner: string, bytes: number): Promise<void> {
    await this.refuseIfOver(owner, this.heldBy(owner) + bytes);
  }

  async put(data: Uint8Array, mediaType: string, owner: string): Promise<string> {
    const bytes = data.byteLength;
    this.hold(owner, bytes);
    try {
      await this.refuseIfOver(owner, this.heldBy(owner));
      await this.makeRoom(bytes);
      const name = await this.files.put(data, mediaType);
      await this.record(name, owner, bytes);
      return name;
    } finally {
      this.hold(owner, -bytes);
    }
  }

  async putStream(body: Readable, sniff: (head: Uint8Array) => string | undefined, owner: string): Promise<StreamedMedia> {
    const { room, over } = await this.roomOf(owner);
    const cap = this.settings.maxTotalBytes || Number.POSITIVE_INFINITY;
    let counted = 0;
    const meter = new Transform({
      transform: (chunk: Buffer, _encoding, done) => {
        counted += chunk.length;
        this.hold(owner, chunk.length);
        if (counted > room) done(over);
        else if (counted > cap) done(storeFull(counted, cap));
        else done(null, chunk);
      },
    });
    body.on('error', (error) => meter.destroy(error));
    meter.on('error', () => body.destroy());
    body.pipe(meter);
    try {
      const stored = await this.files.putStream(meter, sniff);
      await this.record(stored.name, owner, stored.bytes);
      await this.makeRoom(0, stored.name);
      return stored;
    } finally {
      this.hold(owner, -counted);
    }
  }

  open(name: string, range?: ByteRange): Promise<StoredMedia | undefined> {
    return this.files.open(name, range);
  }

  async presignedUrl(name: string, expiresAt: number): Promise<string | undefined> {
    return this.files.presignedUrl?.(name, expiresAt);
  }

  async remove(name: string): Promise<void> {
    await this.files.remove(name);
    await this.index.remove(name);
  }

  async sweep(): Promise<number> {
    const removed = await this.files.sweep();
    const now = this.now();
    await this.index.forget(now - this.settings.retentionMs, utcDay(now) - DAILY_DAYS_KEPT);
    return removed;
  }

  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.files.close();
  }

  private heldBy(owner: string): number {
    return this.heldByOwner.get(owner) ?? 0;
  }

  private hold(owner: string, bytes: number): void {
    const held = this.heldBy(owner) + bytes;
    if (held > 0) this.heldByOwner.set(owner, held);
    else this.heldByOwner.delete(owner);
    this.heldTotal += bytes;
  }

  /**
   * Bytes the owner may still write now, counting what it has in flight (Infinity when
   * unlimited), and the error of the limit that leaves the least; throws that error when none is left.
   */
  private async roomOf(owner: string): Promise<{ room: number; over: Error }> {
    const { quotaBytesPerAccount: quota, dailyBytesPerAccount: daily, retentionMs } = this.settings;
    const now = this.now();
    const held = this.heldBy(owner);
    let room = Number.POSITIVE_INFINITY;
    let over: Error = storeFull(0, 0);
    if (quota) {
      const kept = await this.index.keptBytes(owner, now - retentionMs);
      room = quota - kept - held;
      over = keptQuotaFull(kept, quota);
    }
    if (daily) {
      const written = await this.index.writtenOn(owner, utcDay(now));
      if (daily - written - held < room) {
        room = daily - written - held;
        over = dailyQuotaFull(written, daily, now);
      }
    }
    if (room <= 0) throw over;
    return { room, over };
  }

  /** Throws when the owner's files plus `pending` bytes not yet stored pass a quota. */
  private async refuseIfOver(owner: string, pending: number): Promise<void> {
    const { quotaBytesPerAccount: quota, dailyBytesPerAccount: daily, retentionMs } = this.settings;
    const now = this.now();
    if (quota) {
      const kept = await this.index.keptBytes(owner, now - retentionMs);
      if (kept + pending > quota) throw keptQuotaFull(kept, quota);
    }
    if (daily) {
      const written = await this.index.writtenOn(owner, utcDay(now));
      if (written + pending > daily) throw dailyQuotaFull(written, daily, now);
    }
  }

  private async record(name: string, owner: string, bytes: number): Promise<void> {
    const now = this.now();
    try {
      await this.index.add({ name, owner, bytes, createdAt: now }, utcDay(now));
    } catch (error) {
      // A file nobody accounts for must not stay: it would be beyond every quota.
      await this.files.remove(name).catch(() => undefined);
      throw error;
    }
  }

  /** Evicts the oldest files until the store holds at most its cap with `incoming` more bytes (and the writes in flight). */
  private makeRoom(incoming: number, keep?: string): Promise<void> {
    const cap = this.settings.maxTotalBytes;
    if (!cap) return Promise.resolve();
    if (incoming > cap) return Promise.reject(storeFull(incoming, cap));
    const run = this.evicting.then(() => this.evict(cap, keep));
    this.evicting = run.catch(() => undefined);
    return run;
  }

  private async evict(cap: number, keep: string | undefined): Promise<void> {
    // Held bytes include the incoming file (`put` holds before it makes room). Expired files count until the sweep deletes them.
    let total = (await this.index.totalBytes()) + this.heldTotal;
    let files = 0;
    let freed = 0;
    while (total > cap) {
      const oldest = (await this.index.oldest(EVICTION_BATCH)).filter((file) => file.name !== keep);
      if (oldest.length === 0) throw storeFull(this.heldTotal, cap);
      for (const file of oldest) {
        if (total <= cap) break;
        await this.files.remove(file.name);
        await this.index.remove(file.name);
        total -= file.bytes;
        freed += file.bytes;
        files++;
      }
    }
    if (files > 0) this.options.onEvicted?.(files, freed);
  }
}
