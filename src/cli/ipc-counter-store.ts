/**
 * A worker's counter store when workers share no Redis: every call goes to the primary, which
 * holds the one in-memory store all workers count in (`serveCounters`). The guard around it
 * (`GuardedCounterStore`) gives each call its deadline and the failure policy, as for Redis.
 */
import type { ActualAmounts, AdmitRequest, AdmitResult, CounterStore, Hold, HoldState } from '../limits/contract.js';
import { DuplicateReservation } from '../limits/counter-rules.js';
import type { CounterMethod, IpcEndpoint, PrimaryMessage } from './cluster-messages.js';

interface Pending {
  resolve(value: unknown): void;
  reject(error: Error): void;
}

/** Calls unanswered for this long are given up (the guard's deadline is far shorter; this only bounds the map). */
const FORGET_AFTER_MS = 30_000;

export class IpcCounterStore implements CounterStore {
  private nextId = 0;
  private readonly pending = new Map<number, Pending>();

  constructor(private readonly endpoint: IpcEndpoint) {
    endpoint.onMessage((message) => this.answer(message));
  }

  admit(request: AdmitRequest): Promise<AdmitResult> {
    return this.call('admit', [request]) as Promise<AdmitResult>;
  }

  async settle(reservationId: string, actual: ActualAmounts, now: number): Promise<void> {
    await this.call('settle', [reservationId, actual, now]);
  }

  async release(reservationId: string, now: number): Promise<void> {
    await this.call('release', [reservationId, now]);
  }

  async renew(reservationIds: readonly string[], leaseMs: number, now: number): Promise<void> {
    await this.call('renew', [reservationIds, leaseMs, now]);
  }

  peek(holds: readonly Hold[], now: number): Promise<HoldState[]> {
    return this.call('peek', [holds, now]) as Promise<HoldState[]>;
  }

  seedSpend(counter: string, spentNusd: number, expiresAt: number | null): Promise<boolean> {
    return this.call('seedSpend', [counter, spentNusd, expiresAt]) as Promise<boolean>;
  }

  async resetSpend(counter: string, spentNusd: number, expiresAt: number | null): Promise<void> {
    await this.call('resetSpend', [counter, spentNusd, expiresAt]);
  }

  async health(): Promise<{ ok: boolean; detail?: string }> {
    if (!this.endpoint.connected) return { ok: false, detail: 'the primary process is gone' };
    return (await this.call('health', [])) as { ok: boolean; detail?: string };
  }

  async close(): Promise<void> {
    for (const waiting of this.pending.values()) waiting.reject(new Error('counter store closed'));
    this.pending.clear();
  }

  private call(method: CounterMethod, args: unknown[]): Promise<unknown> {
    if (!this.endpoint.connected) return Promise.reject(new Error('the primary process is gone'));
    const id = ++this.nextId;
    return new Promise((resolve, reject) => {
      const forget = setTimeout(() => {
        this.pending.delete(id);
        reject(new Error(`the primary did not answer ${method}`));
      }, FORGET_AFTER_MS);
      forget.unref();
      this.pending.set(id, {
        resolve: (value) => {
          clearTimeout(forget);
          resolve(value);
        },
        reject: (error) => {
          clearTimeout(forget);
          reject(error);
        },
      });
      this.endpoint.send({ gengate: 'counters', id, method, args });
    });
  }

  private answer(message: PrimaryMessage): void {
    if (message.gengate !== 'counters-reply') return;
    const waiting = this.pending.get(message.id);
    if (!waiting) return;
    this.pending.delete(message.id);
    if (message.ok) waiting.resolve(message.value);
    else waiting.reject(rebuildError(message.name, message.message));
  }
}

/** The caller's errors keep their type across the channel: the guard treats them apart from an unavailable store. */
function rebuildError(name: string, message: string): Error {
  if (name === 'RangeError') return new RangeError(message);
  if (name === 'DuplicateReservation') return new DuplicateReservation(/reservation (\S+)/.exec(message)?.[1] ?? '');
  return new Error(message);
}
