/**
 * A Redis that dies mid-run, behind the factory's guarded store: while it is gone no call takes
 * longer than its deadline (plus a margin), admits follow the failure policy (rates open, budgets
 * closed), settles and releases are queued; once it is restarted on the same port (from the
 * snapshot taken before the kill) the queued ends apply.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import type { Hold } from '../../src/limits/contract.js';
import { CounterStoreUnavailable } from '../../src/limits/counter-store-unavailable.js';
import type { GuardedCounterStore } from '../../src/limits/guarded-counter-store.js';
import { openCounterStore } from '../../src/limits/open-counter-store.js';

const TIMEOUT_MS = 200;
const MARGIN_MS = 150;
const dir = mkdtempSync(join(tmpdir(), 'gengate-redis-'));
let server: ChildProcess | null = null;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

function startRedis(port: number): Promise<ChildProcess> {
  const child = spawn(
    '/usr/bin/redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir, '--dbfilename', 'dump.rdb'],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('redis-server did not start')), 5_000);
    child.stdout?.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('Ready to accept connections')) {
        clearTimeout(timer);
        resolve(child);
      }
    });
    child.once('exit', (code) => reject(new Error(`redis-server exited ${code}`)));
  });
}

async function timed<T>(work: () => Promise<T>): Promise<{ ms: number; value?: T; error?: unknown }> {
  const started = performance.now();
  try {
    const value = await work();
    return { ms: performance.now() - started, value };
  } catch (error) {
    return { ms: performance.now() - started, error };
  }
}

afterAll(() => {
  server?.kill('SIGKILL'); // a test that failed midway leaves its server here
  rmSync(dir, { recursive: true, force: true });
});

const rate: Hold = { type: 'rate', counter: 'lim:requests_per_minute:key:k:*', limit: 100, amount: 1, label: 'key requests per minute' };
const count: Hold = { type: 'count', counter: 'lim:concurrent_requests:key:k:*', limit: 2, label: 'key concurrent requests' };
const budget: Hold = { type: 'spend', counter: 'bud:key:k:lifetime:UTC:0', limitNusd: 1_000, amountNusd: 600, expiresAt: null, label: 'key lifetime budget' };

describe('counter store over a Redis that dies and comes back', () => {
  it('follows the failure policy within the deadline and applies queued ends after the restart', async () => {
    const port = await freePort();
    server = await startRedis(port);
    const store = openCounterStore({
      redisUrl: `redis://127.0.0.1:${port}`,
      keyPrefix: 'fault:',
      timeoutMs: TIMEOUT_MS,
      failure: { rates: 'open', counts: 'open', budgets: 'closed' },
    }) as GuardedCounterStore;
    const now = Date.now();
    expect((await store.admit({ reservationId: 'a', holds: [rate, count, budget], now, leaseMs: 120_000 })).ok).toBe(true);
    expect((await store.admit({ reservationId: 'b', holds: [count, { ...budget, amountNusd: 300 }], now, leaseMs: 120_000 })).ok).toBe(true);
    expect((await store.peek([count, budget], now)).map((s) => s.remaining)).toEqual([0, 100]);

    const admin = new Redis(`redis://127.0.0.1:${port}`, { lazyConnect: true, maxRetriesPerRequest: 0 });
    await admin.connect();
    await admin.save(); // a snapshot to come back from; `--save ""` takes none by itself
    admin.disconnect();
    const dead = server;
    dead.kill('SIGKILL');
    await new Promise((resolve) => dead.once('exit', resolve));
    server = null;

    const calls = [];
    for (let i = 0; i < 5; i++) {
      calls.push(await timed(() => store.admit({ reservationId: `open${i}`, holds: [rate, count], now, leaseMs: 1_000 })));
      calls.push(await timed(() => store.admit({ reservationId: `closed${i}`, holds: [rate, budget], now, leaseMs: 1_000 })));
      await new Promise((r) => setTimeout(r, 50));
    }
    const settle = await timed(() => store.settle('a', { [budget.counter]: 100 }, now + 1_000));
    const release = await timed(() => store.release('b', now + 1_000));
    for (const call of [...calls, settle, release]) expect(call.ms).toBeLessThan(TIMEOUT_MS + MARGIN_MS);
    calls.forEach((call, i) => {
      if (i % 2 === 0) expect(call.value).toEqual({ ok: true, states: [] });
      else expect(call.error).toBeInstanceOf(CounterStoreUnavailable);
    });
    expect(settle.error).toBeUndefined();
    expect(release.error).toBeUndefined();
    expect(store.pendingEnds).toBeGreaterThanOrEqual(2);
    expect((await store.health()).ok).toBe(false);

    server = await startRedis(port);
    const until = Date.now() + 10_000;
    while (store.pendingEnds > 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
    expect(store.pendingEnds).toBe(0);
    // a settled at 100 of its 600; b released; both counts free.
    expect((await store.peek([count, budget], now + 1_000)).map((s) => s.remaining)).toEqual([2, 900]);
    expect((await store.health()).ok).toBe(true);
    await store.close();
    server.kill('SIGKILL');
    server = null;
  }, 30_000);

  it('answers within the deadline when Redis hangs, and a settle that lands late and again applies once', async () => {
    const port = await freePort();
    server = await startRedis(port);
    const store = openCounterStore({
      redisUrl: `redis://127.0.0.1:${port}`,
      keyPrefix: 'hang:',
      timeoutMs: TIMEOUT_MS,
      failure: { rates: 'open', counts: 'open', budgets: 'closed' },
    }) as GuardedCounterStore;
    const now = Date.now();
    expect((await store.admit({ reservationId: 'a', holds: [count, budget], now, leaseMs: 120_000 })).ok).toBe(true);
    server.kill('SIGSTOP');
    try {
      const open = await timed(() => store.admit({ reservationId: 'o', holds: [rate], now, leaseMs: 1_000 }));
      const closed = await timed(() => store.admit({ reservationId: 'c', holds: [budget], now, leaseMs: 1_000 }));
      const settle = await timed(() => store.settle('a', { [budget.counter]: 250 }, now + 1));
      for (const call of [open, closed, settle]) expect(call.ms).toBeLessThan(TIMEOUT_MS + MARGIN_MS);
      expect(open.value).toEqual({ ok: true, states: [] });
      expect(closed.error).toBeInstanceOf(CounterStoreUnavailable);
      expect(store.pendingEnds).toBeGreaterThanOrEqual(1);
    } finally {
      server.kill('SIGCONT');
    }
    const until = Date.now() + 10_000;
    while (store.pendingEnds > 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
    expect(store.pendingEnds).toBe(0);
    // The timed-out settle reached Redis when it woke, the queued one after it changed nothing.
    expect((await store.peek([count, budget], now + 2)).map((s) => s.remaining)).toEqual([2, 750]);
    await store.close();
    server.kill('SIGKILL');
    server = null;
  }, 30_000);
});
