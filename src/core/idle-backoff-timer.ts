/**
 * Runs a background pass (a poll of the task table, of the webhook outbox) every `baseMs` while
 * passes find work, and less often while they find none: each idle pass doubles the wait, up to
 * `maxIdleMs`. A pass that finds work, or `reset()` (work arrived in this process), brings the
 * wait back to `baseMs`. An idle gateway then costs a few queries a second instead of a dozen,
 * and work another replica leaves behind is still seen within `maxIdleMs`.
 */
interface IdleBackoffOptions {
  baseMs: number;
  /** The longest wait between passes while they find nothing (at least `baseMs`). */
  maxIdleMs: number;
}

/** One pass: resolves true when it found work (the next pass comes after `baseMs`). */
type BackgroundPass = () => Promise<boolean>;

export class IdleBackoffTimer {
  private timer: NodeJS.Timeout | undefined;
  private waitMs: number;
  /** When the scheduled pass fires (epoch ms). */
  private dueAt = 0;
  /** The earliest time something is known to be due (epoch ms), not yet passed; Infinity when none. */
  private hintAt = Number.POSITIVE_INFINITY;
  private running = false;
  private readonly maxIdleMs: number;

  constructor(
    private readonly pass: BackgroundPass,
    private readonly options: IdleBackoffOptions,
  ) {
    this.maxIdleMs = Math.max(options.baseMs, options.maxIdleMs);
    this.waitMs = options.baseMs;
  }

  get started(): boolean {
    return this.running;
  }

  /** The wait between passes while nothing else is known to be due (for tests and metrics). */
  get currentWaitMs(): number {
    return this.waitMs;
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.waitMs = this.options.baseMs;
    this.schedule();
  }

  stop(): void {
    this.running = false;
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  /** Work may be waiting: the next pass comes within `baseMs`, and the wait stays short while passes find work. */
  reset(): void {
    this.waitMs = this.options.baseMs;
    this.reschedule();
  }

  /**
   * Something will be due at `atMs` (epoch ms): a pass comes by then, however long the passes
   * have been idle. Only the earliest such time is kept; a later one is caught by the pass
   * after it, or within `maxIdleMs`.
   */
  runBy(atMs: number): void {
    if (atMs >= this.hintAt) return;
    this.hintAt = atMs;
    this.reschedule();
  }

  /** A pending timer that fires later than the current wait or hint allows is set again (a pass under way schedules when it ends). */
  private reschedule(): void {
    if (!this.running || !this.timer) return;
    if (this.dueAt <= Math.min(Date.now() + this.waitMs, this.hintAt)) return;
    clearTimeout(this.timer);
    this.schedule();
  }

  private schedule(): void {
    const now = Date.now();
    if (this.hintAt <= now) this.hintAt = Number.POSITIVE_INFINITY;
    this.dueAt = Math.min(now + this.waitMs, this.hintAt);
    this.timer = setTimeout(() => void this.fire(), this.dueAt - now);
    this.timer.unref();
  }

  private async fire(): Promise<void> {
    this.timer = undefined;
    if (this.hintAt <= Date.now()) this.hintAt = Number.POSITIVE_INFINITY;
    let busy = false;
    try {
      busy = await this.pass();
    } catch {
      // The pass logs its own failures; an error is no sign of work, so the wait grows.
    }
    if (!this.running || this.timer) return;
    this.waitMs = busy ? this.options.baseMs : Math.min(this.waitMs * 2, this.maxIdleMs);
    this.schedule();
  }
}
