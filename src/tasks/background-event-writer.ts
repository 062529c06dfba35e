/**
 * Batches one background run's stream events into the store: events are queued as they come and
 * written in order, a batch per short interval (or at once when a batch is full), one append (one
 * transaction) each, so a fast stream costs a few writes a second rather than one per token.
 * Appends are serial; `flush` resolves once everything queued is written. An append the store
 * refuses (the run was cancelled, finished or taken over) stops the writer and reports it once.
 */
import type { BackgroundResponseEvent } from '../gateway/contract.js';

const FLUSH_DELAY_MS = 20;
const BATCH_MAX = 64;

interface WriterDeps {
  /** Appends in order; false when the run is no longer this process's to write. */
  append(events: BackgroundResponseEvent[]): Promise<boolean>;
  /** Told after each batch written (followers wake), and once when an append was refused or failed. */
  written(): void;
  lost(error?: unknown): void;
}

export class BackgroundEventWriter {
  private pending: BackgroundResponseEvent[] = [];
  private chain: Promise<void> = Promise.resolve();
  private timer?: NodeJS.Timeout;
  private stopped = false;

  constructor(private readonly deps: WriterDeps) {}

  /** Queues an event; when a batch is full, resolves only once it is written (the run waits for the store). */
  async push(event: BackgroundResponseEvent): Promise<void> {
    if (this.stopped) return;
    this.pending.push(event);
    if (this.pending.length >= BATCH_MAX) {
      await this.flush();
      return;
    }
    this.timer ??= setTimeout(() => {
      this.timer = undefined;
      void this.flush();
    }, FLUSH_DELAY_MS);
  }

  /** Writes everything queued; resolves once written (or once the writer stopped). */
  flush(): Promise<void> {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    const batch = this.pending;
    this.pending = [];
    if (batch.length > 0) {
      this.chain = this.chain.then(async () => {
        if (this.stopped) return;
        try {
          if (await this.deps.append(batch)) {
            this.deps.written();
            return;
          }
          this.stop();
          this.deps.lost();
        } catch (error) {
          this.stop();
          this.deps.lost(error);
        }
      });
    }
    return this.chain;
  }

  stop(): void {
    this.stopped = true;
    this.pending = [];
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }
}
