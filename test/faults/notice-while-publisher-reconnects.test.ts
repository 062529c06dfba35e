/**
 * A change notice sent while the sender's Redis publisher is still reconnecting after a Redis
 * restart. Two stores on one SQLite file stand for two replicas, each with its invalidation bus
 * over a private Redis (as `app.ts` builds them: the safety poll every 5 s while the notifier
 * listens). Redis is killed and, once replica A's connections have backed off to a retry seconds
 * away, started again; replica B is listening again at once (it (re)connects first), replica A is
 * not yet. A revokes a key (bumps the `keys` revision and publishes): B must hear it well before
 * its 5 s safety poll — the notice waits on A until its publisher is connected again, which the
 * notice itself hurries, instead of being dropped.
 *
 * And a replica started while Redis was down: its first SUBSCRIBE failed, so nothing subscribed
 * it again once Redis was back, yet it counted itself listening (and polled only every 5 s). It
 * must hear another replica's notice once Redis is back.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { InvalidationTopic } from '../../src/store/invalidation-bus.js';
import { type OpenedStore, openStore } from '../../src/store/open-store.js';
import { RedisChangeNotifier } from '../../src/store/redis-change-notifier.js';
import { StoreInvalidationBus } from '../../src/store/store-invalidation-bus.js';
import { bumpRevision } from '../../src/store/store-revisions.js';
import { type PrivateRedis, startPrivateRedis } from './helpers/private-redis.js';

/** Far below the 5 s safety poll of a bus whose notifier listens. */
const FELT_MS = 1_000;

let redis: PrivateRedis;
const dir = mkdtempSync(join(tmpdir(), 'gengate-notice-reconnect-'));
const stores: OpenedStore[] = [];
const buses: StoreInvalidationBus[] = [];

beforeAll(async () => {
  redis = await startPrivateRedis();
  const url = `sqlite:${join(dir, 'gengate.db')}`;
  stores.push(await openStore(url));
  stores.push(await openStore(url));
});

afterAll(async () => {
  for (const bus of buses) await bus.close();
  for (const store of stores) await store.close();
  await redis?.kill();
  rmSync(dir, { recursive: true, force: true });
});

async function until(what: string, condition: () => boolean, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

function heardAfter(bus: StoreInvalidationBus, topic: InvalidationTopic): Promise<number> {
  const started = performance.now();
  return new Promise((resolve) => {
    const stop = bus.subscribe(topic, () => {
      stop();
      resolve(performance.now() - started);
    });
  });
}

it('a revocation sent while the publisher is reconnecting reaches the other replica by notice, not by the 5 s poll', async () => {
  const notifierA = new RedisChangeNotifier(redis.url, { keyPrefix: 'notice-test:' });
  const busA = new StoreInvalidationBus(stores[0].db, { notifier: notifierA });
  buses.push(busA);
  await busA.start();
  await until('replica A listening', () => notifierA.listening, 5_000);

  await redis.kill();
  await until('replica A to see Redis gone', () => !notifierA.listening, 5_000);
  // A's connections retry after 0.5, 1.5 and 3.5 s, then not before 7.5 s: restarted at ~4 s, A stays away for seconds.
  await new Promise((resolve) => setTimeout(resolve, 4_000));
  await redis.restart();

  // Replica B (re)connects first: listening, and its first read done.
  const notifierB = new RedisChangeNotifier(redis.url, { keyPrefix: 'notice-test:' });
  const busB = new StoreInvalidationBus(stores[1].db, { notifier: notifierB });
  buses.push(busB);
  await busB.start();
  await until('replica B listening', () => notifierB.listening, 5_000);
  await new Promise((resolve) => setTimeout(resolve, 400));
  // The case under test: B listens, A's connections are still waiting for their next retry.
  expect(notifierA.listening).toBe(false);

  const heard = heardAfter(busB, 'keys');
  await bumpRevision(stores[0].db, 'keys');
  busA.publish('keys');
  const felt = await Promise.race([heard, new Promise<number>((resolve) => setTimeout(() => resolve(Number.POSITIVE_INFINITY), 6_000))]);
  expect(felt).toBeLessThan(FELT_MS);
}, 30_000);

it('a replica started while Redis was down listens once Redis is back: a notice from another replica reaches it', async () => {
  await redis.kill();
  const notifierC = new RedisChangeNotifier(redis.url, { keyPrefix: 'notice-test:' });
  const busC = new StoreInvalidationBus(stores[1].db, { notifier: notifierC });
  buses.push(busC);
  await busC.start();
  expect(notifierC.listening).toBe(false);
  await redis.restart();
  await until('replica C listening', () => notifierC.listening, 15_000);
  // Its first read after the reconnect is done before the change is made.
  await new Promise((resolve) => setTimeout(resolve, 400));

  const notifierD = new RedisChangeNotifier(redis.url, { keyPrefix: 'notice-test:' });
  const busD = new StoreInvalidationBus(stores[0].db, { notifier: notifierD });
  buses.push(busD);
  await busD.start();
  await until('replica D listening', () => notifierD.listening, 5_000);
  const heard = heardAfter(busC, 'channels');
  await bumpRevision(stores[0].db, 'channels');
  busD.publish('channels');
  const felt = await Promise.race([heard, new Promise<number>((resolve) => setTimeout(() => resolve(Number.POSITIVE_INFINITY), 6_000))]);
  expect(felt).toBeLessThan(FELT_MS);
}, 30_000);
