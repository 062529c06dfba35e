/**
 * The usage journal: an append-only file per process where the ledger writes, before the
 * database has them, each admitted call ("open") and each finished call's usage row. Whatever is
 * queued goes out in one synchronous write, when the line that needs it soonest says (`When`):
 * at the end of the event-loop turn (`setImmediate`: every line queued in the turn shares it),
 * once the current microtasks have run (a caller holding its answer's last bytes for the line
 * sends them in the same turn), or with the next write, whoever asks for it (the recorder writes
 * at least every 100 ms). A `kill -9` loses at most what was queued and not written yet; callers
 * that must not answer before their line is in the kernel wait for `onWritten`.
 *
 * The file is cut into segments: once the current one is large, the next one starts with the
 * still-open calls copied over, and a full segment is deleted as soon as the database holds
 * every row it journaled. What is left after a crash is folded in by `recoverJournals`.
 */
import { closeSync, mkdirSync, openSync, unlinkSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from 'pino';
import { journalFileName } from './journal-files.js';

export interface JournalSegment {
  readonly path: string;
  /** Rows journaled here that the database does not hold yet. */
  pendingRows: number;
  /** A later segment is being written; this one is deleted once `pendingRows` is 0. */
  retired: boolean;
  /** Rows journaled here were dropped from memory: only the next start can fold them in. */
  keep: boolean;
  bytes: number;
}

interface JournalOptions {
  dir: string;
  pid: number;
  instance: string;
  logger: Logger;
  /** Lines to start a new segment with: the calls still open. */
  carryOver: () => string[];
  maxSegmentBytes?: number;
}

type Written = (segment: JournalSegment) => void;

/** When a queued line must be written: `turn` at the end of this turn, `prompt` after this microtask, `lazy` with the next write. */
type When = 'turn' | 'prompt' | 'lazy';

const DEFAULT_MAX_SEGMENT_BYTES = 4 * 1024 * 1024;

export class UsageJournal {
  private lines: string[] = [];
  private callbacks: Written[] = [];
  private scheduled?: NodeJS.Immediate;
  private promptly = false;
  private fd = -1;
  private current!: JournalSegment;
  private sequence = 0;
  private readonly segments = new Set<JournalSegment>();
  private failing = false;
  private closed = false;
  private readonly maxSegmentBytes: number;

  constructor(private readonly options: JournalOptions) {
    this.maxSegmentBytes = options.maxSegmentBytes ?? DEFAULT_MAX_SEGMENT_BYTES;
    mkdirSync(options.dir, { recursive: true });
    this.openSegment();
  }

  /** Queues one line (ending in `\n`), written as `when` says; `onWritten` runs once it is written. */
  append(line: string, when: When, onWritten?: Written): void {
    if (this.closed) {
      onWritten?.(this.current);
      return;
    }
    this.lines.push(line);
    if (onWritten) this.callbacks.push(onWritten);
    if (when === 'prompt') {
      if (this.promptly) return;
      this.promptly = true;
      queueMicrotask(() => {
        this.promptly = false;
        this.flushSync();
      });
    } else if (when === 'turn') this.scheduled ??= setImmediate(() => this.flushSync());
  }

  /** Writes what is queued now (end of turn, a prompt line, shutdown, or before reading the queue). */
  flushSync(): void {
    if (this.scheduled) {
      clearImmediate(this.scheduled);
      this.scheduled = undefined;
    }
    if (this.lines.length === 0) return;
    const data = this.lines.join('');
    const callbacks = this.callbacks;
    this.lines = [];
    this.callbacks = [];
    this.write(data);
    const segment = this.current;
    for (const callback of callbacks) callback(segment);
    if (segment.bytes >= this.maxSegmentBytes) this.rotate();
  }

  /** The database now holds `count` rows journaled in `segment`. */
  settled(segment: JournalSegment, count: number): void {
    segment.pendingRows -= count;
    this.releaseIfDone(segment);
  }

  /**
   * Writes what is queued and closes the file. With `discard`, the segments are deleted when
   * the database holds everything they journaled and no call is still open.
   */
  close(discard: boolean): void {
    if (this.closed) return;
    this.flushSync();
    this.closed = true;
    closeSync(this.fd);
    if (!discard) return;
    for (const segment of this.segments) {
      if (segment.pendingRows > 0 || segment.keep) continue;
      this.remove(segment);
    }
  }

  get segmentCount(): number {
    return this.segments.size;
  }

  private write(data: string): void {
    const buffer = Buffer.from(data, 'utf8');
    try {
      let offset = 0;
      while (offset < buffer.length) offset += writeSync(this.fd, buffer, offset, buffer.length - offset);
      this.current.bytes += buffer.length;
      if (this.failing) this.options.logger.warn('usage journal writes again');
      this.failing = false;
    } catch (error) {
      // The rows still reach the database; only their crash protection is missing.
      if (!this.failing) this.options.logger.error({ err: error }, 'usage journal write failed');
      this.failing = true;
    }
  }

  private openSegment(): void {
    const path = join(this.options.dir, journalFileName(this.options.pid, this.options.instance, this.sequence++));
    this.fd = openSync(path, 'a');
    this.current = { path, pendingRows: 0, retired: false, keep: false, bytes: 0 };
    this.segments.add(this.current);
  }

  private rotate(): void {
    const previous = this.current;
    closeSync(this.fd);
    previous.retired = true;
    this.openSegment();
    const carried = this.options.carryOver();
    if (carried.length > 0) this.write(carried.join(''));
    this.releaseIfDone(previous);
  }

  private releaseIfDone(segment: JournalSegment): void {
    if (segment.retired && segment.pendingRows === 0 && !segment.keep) this.remove(segment);
  }

  private remove(segment: JournalSegment): void {
    this.segments.delete(segment);
    try {
      unlinkSync(segment.path);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT')
        this.options.logger.warn({ err: error, path: segment.path }, 'could not delete a usage journal segment');
    }
  }
}
