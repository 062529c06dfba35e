/**
 * The guard over a store that fails or hangs on demand (a memory store behind a switch): the
 * failure policy per kind of hold, the deadline, and ends queued while the store is away and
 * applied, in order, once it answers again.
 */
import { describe, expect, it } from 'vitest';
import type { CounterStore, FailurePolicy, Hold } from '../../src/limits/contract.js';
import { CounterStoreUnavailable } from '../../src/limits/counter-store-unavailable.js';
import { GuardedCounterStore } from '../../src/limits/guarded-counter-store.js';
import { MemoryCounterStore } from '../../src/limits/memory-counter-store.js';

type Mode = 'up' | 'down' | 'hang';

/** Wraps a real store; `down` rejects every call, `hang` never answers. */
function switchable(inner: CounterStore): { store: CounterStore; set(mode: Mode): void } {
  let mode: Mode = 'up';
  const gate = <T>(work: () => Promise<T>): Promise<T> => {
    if (mode === 'down') return Promise.reject(new Error('connection refused'));
    if (mode === 'hang') return new Promise<T>(() => {});
    return work();
  };
  const store: CounterStore = {
    admit: (r) => gate(() => inner.admit(r)),
    settle: (id, a, n) => gate(() => inner.settle(id, a, n)),
    release: (id, n) => gate(() => inner.release(id, n)),
    renew: (ids, l, n) => gate(() => inner.renew(ids, l, n)),
    peek: (h, n) => gate(() => inner.peek(h, n)),
    seedSpend: (c, s, e) => gate(() => inner.seedSpend(c, s, e)),
    resetSpend: (c, s, e) => gate(() => inner.resetSpend(c, s, e)),
    health: () => gate(() => inner.health()),
    close: () => inner.close(),
  };
  return { store, set: (next) => (mode = next) };
}

const rate: Hold = { type: 'rate', counter: 'lim:tokens_per_minute:key:k:*', limit: 1_000, amount: 100, label: 'key tokens per minute' };
const budget: Hold = { type: 'spend', counter: 'bud:key:k:lifetime:UTC:0', limitNusd: 1_000, amountNusd: 600, expiresAt: null, label: 'key lifetime budget' };
const defaults: FailurePolicy = { rates: 'open', counts: 'open', budgets: 'closed' };

function setup(failure = defaults) {
  const memory = new MemoryCounterStore();
  const sw = switchable(memory);
  const guard = new GuardedCounterStore(sw.store, { failure, timeoutMs: 50, retryEveryMs: 20 });
  return { memory, sw, guard };
}

const waitFor = async (check: () => boolean | Promise<boolean>) => {
  const until = Date.now() + 2_000;
  while (!(await check())) {
    if (Date.now() > until) throw new Error('condition not met in 2 s');
    await new Promise((r) => setTimeout(r, 10));
  }
};

describe('GuardedCounterStore', () => {
  it('admits uncounted under an open policy, within the deadline, when the store hangs', async () => {
    const { sw, guard } = setup();
    sw.set('hang');
    const started = Date.now();
    const result = await guard.admit({ reservationId: 'r1', holds: [rate], now: 0, leaseMs: 1_000 });
    expect(Date.now() - started).toBeLessThan(200);
    expect(result).toEqual({ ok: true, states: [] });
    expect((await guard.health()).ok).toBe(false);
  });

  it('refuses with CounterStoreUnavailable naming the closed kinds', async () => {
    const { sw, guard } = setup();
    sw.set('down');
    const refused = guard.admit({ reservationId: 'r1', holds: [rate, budget], now: 0, leaseMs: 1_000 });
    await expect(refused).rejects.toBeInstanceOf(CounterStoreUnavailable);
    await refused.catch((error: CounterStoreUnavailable) => {
      expect(error.closedTypes).toEqual(['spend']);
      expect(error.budget).toBe(true);
    });
    const allClosed = setup({ rates: 'closed', counts: 'closed', budgets: 'closed' });
    allClosed.sw.set('down');
    await expect(allClosed.guard.admit({ reservationId: 'r2', holds: [rate], now: 0, leaseMs: 1_000 })).rejects.toMatchObject({
      closedTypes: ['rate'],
      budget: false,
    });
  });

  it('queues settles and releases while the store is away and applies them once it answers', async () => {
    const { memory, sw, guard } = setup();
    await guard.admit({ reservationId: 'a', holds: [budget], now: 0, leaseMs: 60_000 });
    sw.set('down');
    await guard.settle('a', { [budget.counter]: 100 }, 10);
    expect(guard.pendingEnds).toBe(1);
    expect((await memory.peek([budget], 10))[0].remaining).toBe(400);
    sw.set('up');
    await waitFor(() => guard.pendingEnds === 0);
    expect((await memory.peek([budget], 20))[0].remaining).toBe(900);
    expect((await guard.health()).ok).toBe(true);
  });

  it('releases a refused admit that may land after its deadline', async () => {
    const { memory, sw, guard } = setup();
    sw.set('hang');
    await expect(guard.admit({ reservationId: 'late', holds: [budget], now: 0, leaseMs: 60_000 })).rejects.toBeInstanceOf(CounterStoreUnavailable);
    // The admit did land (as a slow Redis might): the queued release undoes it.
    await memory.admit({ reservationId: 'late', holds: [budget], now: 0, leaseMs: 60_000 });
    sw.set('up');
    await waitFor(() => guard.pendingEnds === 0);
    expect((await memory.peek([budget], 1))[0].remaining).toBe(1_000);
  });

  it('passes the caller’s own mistakes through without a policy or a retry', async () => {
    const { guard } = setup({ rates: 'open', counts: 'open', budgets: 'open' });
    await expect(guard.admit({ reservationId: '', holds: [], now: 0, leaseMs: 1 })).rejects.toBeInstanceOf(RangeError);
    await guard.admit({ reservationId: 'dup', holds: [], now: 0, leaseMs: 1_000 });
    await expect(guard.admit({ reservationId: 'dup', holds: [], now: 0, leaseMs: 1_000 })).rejects.toThrow(/already exists/);
    expect(guard.pendingEnds).toBe(0);
  });

  it('bounds the queue, dropping the oldest end', async () => {
    const memory = new MemoryCounterStore();
    const sw = switchable(memory);
    const guard = new GuardedCounterStore(sw.store, { failure: defaults, timeoutMs: 20, queueLimit: 3, retryEveryMs: 10_000 });
    sw.set('down');
    for (let i = 0; i < 5; i++) await guard.release(`r${i}`, 0);
    expect(guard.pendingEnds).toBe(3);
    await guard.close();
  });

  it('turns failed reads into CounterStoreUnavailable and swallows a failed renewal', async () => {
    const { sw, guard } = setup();
    sw.set('down');
    await expect(guard.peek([rate], 0)).rejects.toBeInstanceOf(CounterStoreUnavailable);
    await expect(guard.seedSpend(budget.counter, 1, null)).rejects.toBeInstanceOf(CounterStoreUnavailable);
    await expect(guard.renew(['x'], 1_000, 0)).resolves.toBeUndefined();
  });
});
