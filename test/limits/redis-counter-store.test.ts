/**
 * The counter store behaviour suite against a real Redis (127.0.0.1:6379), each test under its
 * own key prefix and cleaned up after; plus what only Redis shows: replicas (separate clients)
 * racing for one counter, and keys that all carry a TTL.
 */
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { RedisCounterStore, redisClientOptions } from '../../src/limits/redis-counter-store.js';
import { describeCounterStore } from './counter-store-behaviour.js';

const URL = process.env.GENGATE_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const clients: Redis[] = [];
const client = () => {
  const made = new Redis(URL, redisClientOptions(1_000));
  clients.push(made);
  return made;
};

async function dropPrefix(redis: Redis, prefix: string): Promise<void> {
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
    cursor = next;
    if (keys.length > 0) await redis.del(...keys);
  } while (cursor !== '0');
}

afterAll(async () => {
  await Promise.all(clients.map((c) => c.quit()));
});

const ready = (redis: Redis) => (redis.status === 'ready' ? Promise.resolve() : new Promise<void>((resolve) => redis.once('ready', () => resolve())));

describeCounterStore('redis', async () => {
  const redis = client();
  await ready(redis);
  const prefix = `gengate-test:${randomUUID()}:`;
  return { store: new RedisCounterStore(redis, { keyPrefix: prefix }), cleanup: () => dropPrefix(redis, prefix) };
});

describe('RedisCounterStore across replicas', () => {
  it('admits exactly the limit when three clients race for one counter', async () => {
    const prefix = `gengate-test:${randomUUID()}:`;
    const stores = [client(), client(), client()].map((redis) => new RedisCounterStore(redis, { keyPrefix: prefix }));
    const now = Date.now();
    const hold = { type: 'rate' as const, counter: 'lim:requests_per_minute:model::gpt-*', limit: 30, amount: 1, label: 'model requests per minute' };
    const results = await Promise.all(
      Array.from({ length: 120 }, (_, i) => stores[i % 3].admit({ reservationId: `race_${i}`, holds: [hold], now, leaseMs: 30_000 })),
    );
    expect(results.filter((r) => r.ok)).toHaveLength(30);
    const counts = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        stores[i % 3].admit({
          reservationId: `race_c${i}`,
          holds: [{ type: 'count', counter: 'lim:concurrent_requests:model::x', limit: 7, label: 'c' }],
          now,
          leaseMs: 30_000,
        }),
      ),
    );
    expect(counts.filter((r) => r.ok)).toHaveLength(7);
    const spend = { type: 'spend' as const, counter: 'bud:account:a:day:UTC:0', limitNusd: 1_000, amountNusd: 100, expiresAt: now + 60_000, label: 's' };
    const spends = await Promise.all(
      Array.from({ length: 30 }, (_, i) => stores[i % 3].admit({ reservationId: `race_s${i}`, holds: [spend], now, leaseMs: 30_000 })),
    );
    expect(spends.filter((r) => r.ok)).toHaveLength(10);
    await dropPrefix(clients[clients.length - 1], prefix);
  });

  it('settles on one replica what another admitted', async () => {
    const prefix = `gengate-test:${randomUUID()}:`;
    const [a, b] = [new RedisCounterStore(client(), { keyPrefix: prefix }), new RedisCounterStore(client(), { keyPrefix: prefix })];
    const hold = { type: 'spend' as const, counter: 'bud:account:a1:lifetime:UTC:0', limitNusd: 1_000, amountNusd: 800, expiresAt: null, label: 'b' };
    const now = Date.now();
    await a.admit({ reservationId: 'x1', holds: [hold], now, leaseMs: 30_000 });
    await b.settle('x1', { [hold.counter]: 250 }, now);
    await a.settle('x1', { [hold.counter]: 999 }, now);
    expect((await b.peek([hold], now))[0].remaining).toBe(750);
    await dropPrefix(clients[clients.length - 1], prefix);
  });

  it('puts a TTL on every key except a lifetime budget', async () => {
    const redis = client();
    const prefix = `gengate-test:${randomUUID()}:`;
    const store = new RedisCounterStore(redis, { keyPrefix: prefix });
    const now = Date.now();
    await store.admit({
      reservationId: 'ttl1',
      now,
      leaseMs: 30_000,
      holds: [
        { type: 'rate', counter: 'lim:tokens_per_minute:key:k:*', limit: 100, amount: 10, label: 't' },
        { type: 'count', counter: 'lim:concurrent_requests:key:k:*', limit: 3, label: 'c' },
        { type: 'spend', counter: 'bud:key:k:day:UTC:1', limitNusd: 100, amountNusd: 5, expiresAt: now + 3_600_000, label: 's' },
        { type: 'spend', counter: 'bud:key:k:lifetime:UTC:0', limitNusd: 100, amountNusd: 5, expiresAt: null, label: 'l' },
      ],
    });
    await store.admit({ reservationId: 'ttl2', now, leaseMs: 30_000, holds: [] });
    await store.release('ttl2', now);
    const keys = (await redis.keys(`${prefix}*`)).sort();
    expect(keys.length).toBe(8);
    for (const key of keys) {
      const ttl = await redis.pttl(key);
      if (key === `${prefix}spend:bud:key:k:lifetime:UTC:0`) expect(ttl).toBe(-1);
      else expect(ttl, key).toBeGreaterThan(0);
    }
    await dropPrefix(redis, prefix);
  });
});
