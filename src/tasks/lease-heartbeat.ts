/**
 * Keeps the leases this process holds alive while it works on them: every third of the lease,
 * one statement extends all of them at once. A process that dies stops beating, so its tasks
 * are free for another within one lease (tens of seconds), while a live one never loses a task
 * to a slow upstream or a long download.
 */
import type { Logger } from 'pino';

/** Ids per renewal statement (bound parameters stay well under every database's limit). */
const RENEW_CHUNK = 500;

export class LeaseHeartbeat {
  private readonly held = new Map<string, number>();
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly renew: (ids: string[], until: number) => Promise<unknown>,
    private readonly leaseMs: number,
    private readonly logger?: Logger,
  ) {}

  /** Keeps `id`'s lease alive until as many `drop`s as `hold`s (a task may be held by a poll and a download at once). */
  hold(id: string): void {
    this.held.set(id, (this.held.get(id) ?? 0) + 1);
  }

  drop(id: string): void {
    const count = this.held.get(id) ?? 0;
    if (count <= 1) this.held.delete(id);
    else this.held.set(id, count - 1);
  }

  get size(): number {
    return this.held.size;
  }

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.beat(), Math.max(50, Math.floor(this.leaseMs / 3)));
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  /** One renewal of everything held (the timer's, and tests'). */
  async beat(): Promise<void> {
    if (this.held.size === 0) return;
    const ids = [...this.held.keys()];
    const until = Date.now() + this.leaseMs;
    for (let i = 0; i < ids.length; i += RENEW_CHUNK) {
      await this.renew(ids.slice(i, i + RENEW_CHUNK), until).catch((error: unknown) =>
        this.logger?.warn({ err: error, tasks: ids.length }, 'renewing task leases failed; retrying on the next beat'),
      );
    }
  }
}
