/**
 * Records usage off the hot path. Each admitted call is journaled as open (`begin`); when it
 * ends its row is journaled (`record`, resolved once the row is in the kernel, so a caller can
 * hold its last byte until then) and then queued; a timer writes queued rows to the store in one
 * batch. A failed write keeps the rows for the next flush (bounded, oldest dropped from memory
 * first — the journal still has them for the next start), and `close()` flushes everything. A
 * row the database refuses for its data (it can never be written) is isolated from its batch
 * and dead-lettered (`usage-dead-letters.ts`), so that it cannot block the rows of everyone else.
 * `recover()` folds in the journals of processes that died before their rows reached the store.
 */
import type { Logger } from 'pino';
import { randomId } from '../core/ids.js';
import { isRefusedRow } from '../store/refused-row.js';
import type { UsageRepository, UsageRow } from '../store/usage-repository.js';
import { insertIsolating } from './insert-isolating.js';
import { liveInstances } from './journal-files.js';
import { openLine, rowLine, type OpenCall } from './journal-entries.js';
import { recoverJournals, type RecoveryResult } from './recover-journals.js';
import { UsageDeadLetters } from './usage-dead-letters.js';
import { UsageJournal, type JournalSegment } from './usage-journal.js';

export type { OpenCall } from './journal-entries.js';
export type { RecoveryResult } from './recover-journals.js';

const MAX_QUEUED = 100_000;

interface UsageRecorderOptions {
  /** Folder of the usage journal (`<dataDir>/usage-journal`); without it nothing is journaled. */
  journalDir?: string;
  /** Short intervals keep each batch (and, with SQLite, its synchronous write) small. */
  intervalMs?: number;
  maxSegmentBytes?: number;
  /** Where rows the database refuses are kept (`<dataDir>/usage-dead-letter.jsonl`); without it they go to the log. */
  deadLetterFile?: string;
}

interface Queued {
  row: UsageRow;
  segment?: JournalSegment;
}

export class UsageRecorder {
  private queue: Queued[] = [];
  private readonly open = new Map<string, OpenCall>();
  private journal?: UsageJournal;
  private readonly instance = randomId(12);
  private timer?: NodeJS.Timeout;
  private flushing?: Promise<void>;
  private readonly intervalMs: number;
  private readonly deadLetters: UsageDeadLetters;

  constructor(
    private readonly repository: Pick<UsageRepository, 'insertMany'>,
    private readonly logger: Logger,
    private readonly options: UsageRecorderOptions = {},
  ) {
    this.intervalMs = options.intervalMs ?? 100;
    this.deadLetters = new UsageDeadLetters(options.deadLetterFile, logger);
  }

  /** Folds in the journals of processes that are gone. Call before `start()` and before serving. */
  async recover(): Promise<RecoveryResult> {
    if (!this.options.journalDir) return { files: 0, rows: 0, interrupted: 0, skippedLines: 0, deadLettered: 0 };
    const result = await recoverJournals(this.options.journalDir, this.repository, {
      deadLetter: (refused) => this.deadLetters.add(refused, 'recovery'),
    });
    if (result.files > 0) this.logger.info({ ...result }, 'usage journal recovered: unfinished calls closed as interrupted');
    return result;
  }

  start(): void {
    if (this.options.journalDir && !this.journal) {
      liveInstances.add(this.instance);
      this.journal = new UsageJournal({
        dir: this.options.journalDir,
        pid: process.pid,
        instance: this.instance,
        logger: this.logger,
        carryOver: () => [...this.open.values()].map(openLine),
        maxSegmentBytes: this.options.maxSegmentBytes,
      });
    }
    this.timer = setInterval(() => void this.flush(), this.intervalMs);
    this.timer.unref();
  }

  /**
   * A call was admitted: journaled so that, should the process die, it is closed as interrupted.
   * Resolves once the line is in the kernel, at the end of this event-loop turn: a caller whose
   * client may see bytes before the call ends (a stream) waits for it first, so no call the client
   * saw can go unrecorded. With `lazily` (a whole answer, which the client sees only after its row)
   * the line waits for the journal's next write instead: a call that ends soon shares one write
   * with its row, and a longer one is journaled within the recorder's interval.
   */
  begin(open: OpenCall, options: { lazily?: boolean } = {}): Promise<void> {
    const journal = this.journal;
    if (!journal) return Promise.resolve();
    this.open.set(open.request_id, open);
    return new Promise((resolve) => journal.append(openLine(open), options.lazily ? 'lazy' : 'turn', () => resolve()));
  }

  /**
   * A call ended (exactly once per call): its row is journaled, closing the open entry with the
   * same request id, then queued for the store. Resolves once the row is in the kernel. While
   * other calls are open the row waits for the end of the turn, to share one write with theirs;
   * alone, it is written at once (its caller's last bytes then leave in this turn's socket write).
   */
  record(row: UsageRow): Promise<void> {
    this.open.delete(row.request_id);
    const journal = this.journal;
    if (!journal) {
      this.enqueue(row);
      return Promise.resolve();
    }
    const when = this.open.size === 0 ? 'prompt' : 'turn';
    return new Promise((resolve) => {
      journal.append(rowLine(row), when, (segment) => {
        this.enqueue(row, segment);
        resolve();
      });
    });
  }

  get pending(): number {
    return this.queue.length;
  }

  /** Rows the database refused for their data, dead-lettered since the start (a counter for metrics). */
  get deadLettered(): number {
    return this.deadLetters.count;
  }

  /** Calls begun and not yet recorded. */
  get openCalls(): number {
    return this.open.size;
  }

  /** Writes the journal now: for an exit that cannot wait (the next start folds it in). */
  flushJournalSync(): void {
    this.journal?.flushSync();
  }

  /** Writes what is queued; concurrent calls share one write. */
  flush(): Promise<void> {
    this.journal?.flushSync();
    if (this.flushing) return this.flushing;
    if (this.queue.length === 0) return Promise.resolve();
    const batch = this.queue;
    this.queue = [];
    this.flushing = this.write(batch).finally(() => {
      this.flushing = undefined;
    });
    return this.flushing;
  }

  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.flush();
    // A flush that was running when close began may have left newer rows queued.
    if (this.queue.length > 0) await this.flush();
    if (this.journal) {
      if (this.open.size > 0) this.logger.warn({ open: this.open.size }, 'calls still open at shutdown: the next start closes them as interrupted');
      this.journal.close(this.open.size === 0 && this.queue.length === 0);
      liveInstances.delete(this.instance);
    }
  }

  private async write(batch: Queued[]): Promise<void> {
    const outcome = await insertIsolating(batch, (part) => this.repository.insertMany(part.map((queued) => queued.row)), isRefusedRow);
    this.settle(outcome.written);
    if (outcome.refused.length > 0) this.deadLetter(outcome.refused.map(({ item, error }) => ({ queued: item, error })));
    if (outcome.unwritten.length > 0) {
      this.logger.error({ err: outcome.error, rows: outcome.unwritten.length }, 'usage write failed; will retry');
      this.queue = outcome.unwritten.concat(this.queue);
      this.trim();
    }
  }

  private deadLetter(refused: Array<{ queued: Queued; error: unknown }>): void {
    try {
      this.deadLetters.add(
        refused.map(({ queued, error }) => ({ row: queued.row, error })),
        'write',
      );
      this.settle(refused.map(({ queued }) => queued));
    } catch (error) {
      // The journal keeps them: the next start's recovery dead-letters them again.
      for (const { queued } of refused) if (queued.segment) queued.segment.keep = true;
      this.logger.error(
        { err: error, rows: refused.length },
        'usage rows refused by the database could not be dead-lettered; the journal keeps them for the next start',
      );
    }
  }

  private enqueue(row: UsageRow, segment?: JournalSegment): void {
    if (segment) segment.pendingRows++;
    this.queue.push({ row, segment });
    this.trim();
  }

  private trim(): void {
    if (this.queue.length <= MAX_QUEUED) return;
    const dropped = this.queue.splice(0, this.queue.length - MAX_QUEUED);
    for (const queued of dropped) if (queued.segment) queued.segment.keep = true;
    this.logger.warn({ dropped: dropped.length }, 'usage queue full: oldest records left to the journal for the next start');
  }

  private settle(batch: Queued[]): void {
    if (!this.journal) return;
    const counts = new Map<JournalSegment, number>();
    for (const { segment } of batch) if (segment) counts.set(segment, (counts.get(segment) ?? 0) + 1);
    for (const [segment, count] of counts) this.journal.settled(segment, count);
  }
}
