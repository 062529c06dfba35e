/**
 * A counter store that never hangs and never loses an end: every call gets a deadline, an admit
 * the store cannot answer follows the failure policy of its holds' kinds (`open`: admitted
 * uncounted, with no states; `closed`: `CounterStoreUnavailable`), and a settle or release that
 * fails is queued (bounded) and retried until the store answers again, in order. Errors of the
 * caller's making (a malformed hold, a reused reservation id) pass through untouched.
 */
import type { Logger } from 'pino';
import type { ActualAmounts, AdmitRequest, AdmitResult, CounterStore, FailurePolicy, Hold, HoldState } from './contract.js';
import { DuplicateReservation } from './counter-rules.js';
import { CounterStoreUnavailable } from './counter-store-unavailable.js';
import { withDeadline } from './deadline.js';

export interface GuardOptions {
  failure: FailurePolicy;
  /** Each call's deadline (default 250 ms). */
  timeoutMs?: number;
  logger?: Logger;
  /** Most settles and releases kept for retry (default 10 000; the oldest is dropped, its holds expire by lease). */
  queueLimit?: number;
  /** How often queued ends are retried while the store is down (default 1 s). */
  retryEveryMs?: number;
}

type PendingEnd = { op: 'settle'; reservationId: string; actual: ActualAmounts; now: number } | { op: 'release'; reservationId: string; now: number };

const POLICY_OF: Record<Hold['type'], keyof FailurePolicy> = { rate: 'rates', count: 'counts', spend: 'budgets' };

export class GuardedCounterStore implements CounterStore {
  private readonly timeoutMs: number;
  private readonly queueLimit: number;
  private readonly retryEveryMs: number;
  private readonly pending: PendingEnd[] = [];
  private failing: string | null = null;
  private readonly reconnectListeners: Array<() => void> = [];
  private draining = false;
  private retryTimer: NodeJS.Timeout | null = null;
  private closed = false;

  constructor(
    private readonly inner: CounterStore,
    private readonly options: GuardOptions,
  ) {
    this.timeoutMs = options.timeoutMs ?? 250;
    this.queueLimit = options.queueLimit ?? 10_000;
    this.retryEveryMs = options.retryEveryMs ?? 1_000;
  }

  /** Ends waiting for a retry (tests, metrics). */
  get pendingEnds(): number {
    return this.pending.length;
  }

  async admit(request: AdmitRequest): Promise<AdmitResult> {
    try {
      return await this.call(() => this.inner.admit(request));
    } catch (error) {
      if (isCallersError(error)) throw error;
      const reason = describe(error);
      const closedTypes = [...new Set(request.holds.map((hold) => hold.type))].filter((type) => this.options.failure[POLICY_OF[type]] === 'closed');
      if (closedTypes.length > 0) {
        // The admit may still land after its deadline: a queued release makes sure it does not hold anything.
        this.enqueue({ op: 'release', reservationId: request.reservationId, now: request.now });
        this.options.logger?.warn({ reservationId: request.reservationId, closedTypes, reason }, 'limits: counter store unavailable, call refused');
        throw new CounterStoreUnavailable(closedTypes, reason);
      }
      this.options.logger?.warn({ reservationId: request.reservationId, reason }, 'limits: counter store unavailable, call admitted uncounted');
      return { ok: true, states: [] };
    }
  }

  async settle(reservationId: string, actual: ActualAmounts, now: number): Promise<void> {
    await this.end({ op: 'settle', reservationId, actual, now });
  }

  async release(reservationId: string, now: number): Promise<void> {
    await this.end({ op: 'release', reservationId, now });
  }

  async renew(reservationIds: readonly string[], leaseMs: number, now: number): Promise<void> {
    try {
      await this.call(() => this.inner.renew(reservationIds, leaseMs, now));
    } catch (error) {
      if (isCallersError(error)) throw error;
      // The next heartbeat tries again; leases are long enough to miss a few.
      this.options.logger?.warn({ count: reservationIds.length, reason: describe(error) }, 'limits: lease renewal failed');
    }
  }

  peek(holds: readonly Hold[], now: number): Promise<HoldState[]> {
    return this.read(() => this.inner.peek(holds, now));
  }

  seedSpend(counter: string, spentNusd: number, expiresAt: number | null): Promise<boolean> {
    return this.read(() => this.inner.seedSpend(counter, spentNusd, expiresAt));
  }

  resetSpend(counter: string, spentNusd: number, expiresAt: number | null): Promise<void> {
    return this.read(() => this.inner.resetSpend(counter, spentNusd, expiresAt));
  }

  async health(): Promise<{ ok: boolean; detail?: string }> {
    // Asked every time (a probe is how a replica nobody sends traffic to learns its Redis is back).
    try {
      const inner = await withDeadline(() => this.inner.health(), this.timeoutMs);
      if (inner.ok) this.answered();
      else this.unanswered(new Error(inner.detail ?? 'not answering'));
      const queued = this.pending.length > 0 ? ` (${this.pending.length} ends queued)` : '';
      return queued && inner.ok ? { ok: true, detail: `${inner.detail ?? 'ok'}${queued}` } : inner;
    } catch (error) {
      this.unanswered(error);
      return { ok: false, detail: describe(error) };
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
    if (this.pending.length > 0) {
      await this.drain();
      if (this.pending.length > 0)
        this.options.logger?.warn({ count: this.pending.length }, 'limits: closing with ends not applied; their holds expire by lease');
    }
    await this.inner.close();
  }

  /** One call with its deadline; records whether the store answers. */
  private async call<T>(work: () => Promise<T>): Promise<T> {
    try {
      const value = await withDeadline(work, this.timeoutMs);
      this.answered();
      return value;
    } catch (error) {
      if (!isCallersError(error)) this.unanswered(error);
      throw error;
    }
  }

  private async read<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await this.call(work);
    } catch (error) {
      if (isCallersError(error)) throw error;
      throw new CounterStoreUnavailable([], describe(error));
    }
  }

  private async end(pending: PendingEnd): Promise<void> {
    try {
      await this.call(() => this.apply(pending));
    } catch (error) {
      if (isCallersError(error)) throw error;
      this.enqueue(pending);
    }
  }

  private apply(pending: PendingEnd): Promise<void> {
    return pending.op === 'settle'
      ? this.inner.settle(pending.reservationId, pending.actual, pending.now)
      : this.inner.release(pending.reservationId, pending.now);
  }

  private enqueue(pending: PendingEnd): void {
    this.pending.push(pending);
    if (this.pending.length > this.queueLimit) {
      const dropped = this.pending.shift();
      this.options.logger?.error({ reservationId: dropped?.reservationId }, 'limits: end queue full, oldest end dropped (its holds expire by lease)');
    }
    this.scheduleRetry();
  }

  private scheduleRetry(): void {
    if (this.retryTimer || this.closed) return;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      void this.drain();
    }, this.retryEveryMs);
    this.retryTimer.unref();
  }

  /** Applies queued ends in order until one fails (then waits and tries again). */
  private async drain(): Promise<void> {
    if (this.draining) return;
    this.draining = true;
    try {
      while (this.pending.length > 0) {
        try {
          await withDeadline(() => this.apply(this.pending[0]), this.timeoutMs);
        } catch (error) {
          if (!isCallersError(error)) {
            this.unanswered(error);
            this.scheduleRetry();
            return;
          }
        }
        this.pending.shift();
      }
      this.answered();
    } finally {
      this.draining = false;
    }
  }

  onReconnect(listener: () => void): void {
    this.reconnectListeners.push(listener);
    this.inner.onReconnect?.(listener);
  }

  private answered(): void {
    if (this.failing) {
      for (const listener of this.reconnectListeners) listener();
      this.options.logger?.info({ queued: this.pending.length }, 'limits: counter store answers again');
      this.failing = null;
    }
    if (this.pending.length > 0 && !this.draining) void this.drain();
  }

  private unanswered(error: unknown): void {
    if (!this.failing) this.options.logger?.warn({ reason: describe(error) }, 'limits: counter store not answering');
    this.failing = describe(error);
  }
}

/** Errors that retrying or a failure policy cannot fix: the caller's request is wrong. */
function isCallersError(error: unknown): boolean {
  return error instanceof RangeError || error instanceof DuplicateReservation;
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
