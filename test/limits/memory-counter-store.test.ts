import { describe, expect, it } from 'vitest';
import { MemoryCounterStore } from '../../src/limits/memory-counter-store.js';
import { describeCounterStore } from './counter-store-behaviour.js';

describeCounterStore('memory', async () => ({ store: new MemoryCounterStore(), cleanup: async () => {} }));

describe('MemoryCounterStore memory bounds', () => {
  it('forgets counters that are whole again and reservations that ended', async () => {
    const store = new MemoryCounterStore({ sweepEveryMs: 1_000, endedIdLimit: 50 });
    const t0 = 1_000_000;
    for (let i = 0; i < 200; i++) {
      const reservationId = `r${i}`;
      await store.admit({
        reservationId,
        now: t0,
        leaseMs: 5_000,
        holds: [
          { type: 'rate', counter: `lim:requests_per_minute:key:k${i}:*`, limit: 10, amount: 1, label: 'rpm' },
          { type: 'count', counter: `lim:concurrent_requests:key:k${i}:*`, limit: 2, label: 'c' },
          { type: 'spend', counter: `bud:key:k${i}:day:UTC:0`, limitNusd: 100, amountNusd: 10, expiresAt: t0 + 100_000, label: 's' },
        ],
      });
      if (i % 2 === 0) await store.release(reservationId, t0);
    }
    expect(store.size()).toMatchObject({ rates: 200, counts: 100, reservations: 100, endedIds: 50 });
    // A minute later every rate is whole and every lease ran out.
    await store.admit({ reservationId: 'late', now: t0 + 61_000, leaseMs: 1, holds: [] });
    expect(store.size()).toMatchObject({ rates: 0, counts: 0, spends: 0, reservations: 1 });
    expect(store.size().endedIds).toBeLessThanOrEqual(50);
  });
});
