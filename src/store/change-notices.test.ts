import { createServer } from 'node:net';
import { spawn, type ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTempDatabase, type TempDatabase } from '../../test/helpers/postgres.js';
import type { ChangeNotifier } from './change-notifier.js';
import type { InvalidationTopic } from './invalidation-bus.js';
import { type OpenedStore, openStore } from './open-store.js';
import { PostgresChangeNotifier } from './postgres-change-notifier.js';
import { RedisChangeNotifier } from './redis-change-notifier.js';
import { StoreInvalidationBus } from './store-invalidation-bus.js';
import { bumpRevision } from './store-revisions.js';

/** Polls so rare that only a notice can deliver a change within the test. */
const NO_POLL = { pollMs: 600_000, safetyPollMs: 600_000 };

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

function heardWithin(bus: StoreInvalidationBus, topic: InvalidationTopic, ms: number): Promise<number> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${topic} not heard within ${ms} ms`)), ms);
    const stop = bus.subscribe(topic, () => {
      clearTimeout(timer);
      stop();
      resolve(performance.now() - started);
    });
  });
}

/** Two buses stand for two replicas: a change committed and published by one reaches the other's listeners. */
async function expectChangeReachesOtherReplica(stores: [OpenedStore, OpenedStore], notifiers: [ChangeNotifier, ChangeNotifier]): Promise<void> {
  const [a, b] = [
    new StoreInvalidationBus(stores[0].db, { ...NO_POLL, notifier: notifiers[0] }),
    new StoreInvalidationBus(stores[1].db, { ...NO_POLL, notifier: notifiers[1] }),
  ];
  await a.start();
  await b.start();
  try {
    expect(notifiers[1].listening).toBe(true);
    const latencies: number[] = [];
    for (let i = 0; i < 5; i++) {
      const heard = heardWithin(b, 'keys', 2_000);
      await bumpRevision(stores[0].db, 'keys');
      a.publish('keys');
      latencies.push(await heard);
    }
    latencies.sort((x, y) => x - y);
    // The bar: a change applies on every replica within 100 ms.
    expect(latencies[2]).toBeLessThan(100);
  } finally {
    await a.close();
    await b.close();
  }
}

describe('change notices between replicas', () => {
  let database: TempDatabase;
  let stores: [OpenedStore, OpenedStore];
  beforeAll(async () => {
    database = await createTempDatabase();
    stores = [await openStore(database.url), await openStore(database.url)];
  });
  afterAll(async () => {
    for (const store of stores ?? []) await store?.close();
    await database?.drop();
  });

  it('over PostgreSQL LISTEN/NOTIFY', async () => {
    await expectChangeReachesOtherReplica(stores, [
      new PostgresChangeNotifier(stores[0].db, database.url),
      new PostgresChangeNotifier(stores[1].db, database.url),
    ]);
  });

  it('over Redis pub/sub', async () => {
    const prefix = `gengate-test-${process.pid}-${Date.now()}:`;
    await expectChangeReachesOtherReplica(stores, [
      new RedisChangeNotifier('redis://127.0.0.1:6379', { keyPrefix: prefix }),
      new RedisChangeNotifier('redis://127.0.0.1:6379', { keyPrefix: prefix }),
    ]);
  });

  it('does not hold the start when Redis is down: the bus polls until it listens', async () => {
    const notifier = new RedisChangeNotifier(`redis://127.0.0.1:${await freePort()}`);
    const started = Date.now();
    await notifier.start(() => {});
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(notifier.listening).toBe(false);
    notifier.send('keys');
    await notifier.close();
  });

  it('falls back to the fast poll while Redis is away, and listens again once it is back', async () => {
    const port = await freePort();
    const start = (): ChildProcess =>
      spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
    let redis = start();
    const url = `redis://127.0.0.1:${port}`;
    const notifier = new RedisChangeNotifier(url);
    const bus = new StoreInvalidationBus(stores[1].db, { pollMs: 100, safetyPollMs: 600_000, notifier });
    // Redis takes a moment to listen after its process starts.
    try {
      await waitFor(async () => {
        const probe = spawn('redis-cli', ['-p', String(port), 'ping']);
        return (await new Promise((resolve) => probe.on('exit', resolve))) === 0;
      });
      await bus.start();
      await waitFor(async () => notifier.listening);
      redis.kill('SIGKILL');
      await waitFor(async () => !notifier.listening);
      // Not listening: the 100 ms poll still carries a change made by another replica.
      await new Promise((resolve) => setTimeout(resolve, 200));
      const polled = heardWithin(bus, 'channels', 3_000);
      await bumpRevision(stores[0].db, 'channels');
      await polled;
      redis = start();
      await waitFor(async () => notifier.listening, 15_000);
    } finally {
      await bus.close();
      redis.kill('SIGKILL');
    }
  }, 30_000);
});

async function waitFor(condition: () => Promise<boolean>, ms = 5_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await condition().catch(() => false)) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('condition not met in time');
}
