/**
 * Records usage off the hot path: calls only queue a row in memory; a timer writes queued rows
 * to the store in one batch. A failed write keeps the rows for the next flush (bounded, oldest
 * dropped first with a log line), and `close()` flushes everything before the process stops.
 */
import type { Logger } from 'pino';
import type { UsageRepository, UsageRow } from '../store/usage-repository.js';

const MAX_QUEUED = 100_000;

export class UsageRecorder {
  private queue: UsageRow[] = [];
  private timer?: NodeJS.Timeout;
  private flushing?: Promise<void>;

  constructor(
    private readonly repository: UsageRepository,
    private readonly logger: Logger,
    // Short intervals keep each batch (and, with SQLite, its synchronous write) small.
    private readonly intervalMs = 100,
  ) {}

  start(): void {
    this.timer = setInterval(() => void this.flush(), this.intervalMs);
    this.timer.unref();
  }

  record(row: UsageRow): void {
    if (this.queue.length >= MAX_QUEUED) {
      this.queue.shift();
      this.logger.warn('usage queue full: oldest record dropped');
    }
    this.queue.push(row);
  }

  get pending(): number {
    return this.queue.length;
  }

  /** Writes what is queued; concurrent calls share one write. */
  flush(): Promise<void> {
    if (this.flushing) return this.flushing;
    if (this.queue.length === 0) return Promise.resolve();
    const batch = this.queue;
    this.queue = [];
    this.flushing = this.repository
      .insertMany(batch)
      .catch((error: unknown) => {
        this.logger.error({ err: error, rows: batch.length }, 'usage write failed; will retry');
        this.queue = batch.concat(this.queue).slice(-MAX_QUEUED);
      })
      .finally(() => {
        this.flushing = undefined;
      });
    return this.flushing;
  }

  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.flush();
    // A flush that was running when close began may have left newer rows queued.
    if (this.queue.length > 0) await this.flush();
  }
}
