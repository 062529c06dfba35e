/**
 * The factory: memory without a URL, Redis with one; and a Redis that is not there at all
 * from the start fails calls fast, per the failure policy, rather than letting them wait.
 */
import { createServer } from 'node:net';
import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import type { Hold } from '../../src/limits/contract.js';
import { CounterStoreUnavailable } from '../../src/limits/counter-store-unavailable.js';
import { openCounterStore } from '../../src/limits/open-counter-store.js';

const failure = { rates: 'open', counts: 'open', budgets: 'closed' } as const;
const rate: Hold = { type: 'rate', counter: 'lim:requests_per_minute:key:k:*', limit: 1, amount: 1, label: 'key requests per minute' };
const budget: Hold = { type: 'spend', counter: 'bud:key:k:lifetime:UTC:0', limitNusd: 10, amountNusd: 1, expiresAt: null, label: 'b' };

function unusedPort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === 'object' && address ? address.port : 1));
    });
  });
}

describe('openCounterStore', () => {
  it('keeps counters in memory without a Redis URL', async () => {
    const store = openCounterStore({ failure });
    expect((await store.admit({ reservationId: 'a', holds: [rate], now: 0, leaseMs: 1_000 })).ok).toBe(true);
    expect((await store.admit({ reservationId: 'b', holds: [rate], now: 0, leaseMs: 1_000 })).ok).toBe(false);
    expect(await store.health()).toEqual({ ok: true, detail: 'memory' });
    await store.close();
  });

  it('shares counters through Redis when given a URL', async () => {
    const keyPrefix = `gengate-test:${process.pid}:${Date.now()}:`;
    const [a, b] = [
      openCounterStore({ failure, redisUrl: 'redis://127.0.0.1:6379', keyPrefix }),
      openCounterStore({ failure, redisUrl: 'redis://127.0.0.1:6379', keyPrefix }),
    ];
    const now = Date.now();
    expect((await a.admit({ reservationId: 'a', holds: [rate], now, leaseMs: 1_000 })).ok).toBe(true);
    expect((await b.admit({ reservationId: 'b', holds: [rate], now, leaseMs: 1_000 })).ok).toBe(false);
    await Promise.all([a.close(), b.close()]);
    const redis = new Redis('redis://127.0.0.1:6379');
    const keys = await redis.keys(`${keyPrefix}*`);
    expect(keys.length).toBeGreaterThan(0);
    await redis.del(...keys);
    await redis.quit();
  });

  it('fails fast by policy when Redis was never reachable', async () => {
    const port = await unusedPort();
    const store = openCounterStore({ failure, redisUrl: `redis://127.0.0.1:${port}`, timeoutMs: 100 });
    for (let i = 0; i < 3; i++) {
      const started = performance.now();
      await expect(store.admit({ reservationId: `c${i}`, holds: [rate, budget], now: 0, leaseMs: 1_000 })).rejects.toBeInstanceOf(CounterStoreUnavailable);
      expect(await store.admit({ reservationId: `o${i}`, holds: [rate], now: 0, leaseMs: 1_000 })).toEqual({ ok: true, states: [] });
      expect(performance.now() - started).toBeLessThan(2 * 100 + 100);
      await new Promise((r) => setTimeout(r, 30));
    }
    expect((await store.health()).ok).toBe(false);
    await store.close();
  });
});
