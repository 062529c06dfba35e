/**
 * How many due tasks one scheduler pass takes: claims of `claimBatch` each, repeated while
 * they come back full and the channel has polls free — not one claim per pass, which capped a
 * channel at `claimBatch` tasks per tick whatever its concurrency.
 */
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import type { TaskObservation } from '../core/task.js';
import type { TaskProvider, TaskTarget } from '../providers/types.js';
import { reserve } from '../ledger/reservations.js';
import type { ChannelRegistry } from '../routing/channel-registry.js';
import { type OpenedStore, openStore } from '../store/open-store.js';
import { TasksRepository } from '../store/tasks-repository.js';
import type { TaskFinisher } from './task-finisher.js';
import { TaskPoller } from './task-poller.js';

let store: OpenedStore | undefined;
afterEach(async () => {
  await store?.close();
});

interface SetupOptions {
  concurrency: number;
  claimBatch: number;
  tickMs?: number;
  maxIdleTickMs?: number;
  leaseMs?: number;
  /** How long each poll takes upstream. */
  pollTakesMs?: number;
}

async function setup(due: number, { pollTakesMs = 0, ...options }: SetupOptions) {
  store = await openStore('sqlite::memory:');
  const repository = new TasksRepository(store.db, store);
  const batches: number[] = [];
  const polledAt: number[] = [];
  const provider = {
    operations: new Set(['image.imagine']),
    pollPolicy: () => ({ firstDelayMs: 1_000, factor: 1, maxDelayMs: 1_000, deadlineMs: 3_600_000, maxBatch: 10 }),
    async poll(): Promise<TaskObservation> {
      batches.push(1);
      polledAt.push(Date.now());
      if (pollTakesMs > 0) await new Promise((resolve) => setTimeout(resolve, pollTakesMs));
      return { status: 'running', vendorStatus: 'IN_PROGRESS', progress: 0.5 };
    },
    async pollMany(targets: TaskTarget[]) {
      batches.push(targets.length);
      return new Map(targets.map((target) => [target.upstreamId, { status: 'running', vendorStatus: 'IN_PROGRESS', progress: 0.5 } as TaskObservation]));
    },
  } as unknown as TaskProvider;
  const channel = { name: 'sbx', provider: { tasks: provider }, config: { timeoutMs: 10_000 } };
  const registry = {
    current: () => ({ channels: [channel], channel: (name: string | undefined) => (name === channel.name ? channel : undefined) }),
  } as unknown as ChannelRegistry;
  const poller = new TaskPoller({
    repository,
    registry,
    finisher: {} as TaskFinisher,
    logger: pino({ level: 'silent' }),
    notify: () => undefined,
    ...options,
  });
  const now = Date.now();
  for (let i = 0; i < due; i++) {
    const id = `t${i}`;
    await repository.insertQueued(
      {
        id,
        owner: 'k',
        surface: 'imgtask',
        operation: 'image.imagine',
        model: 'imgtask-imagine',
        request: { model: 'imgtask-imagine', prompt: 'p' },
        priceNusd: 0,
        callbackToken: `tok${i}`,
        createdAt: now,
        deadlineAt: now + 3_600_000,
        leaseOwner: poller.instance,
        leaseUntil: now + 60_000,
      },
      reserve({ id, owner: 'k', amountNusd: 0, at: now }),
    );
    await repository.update(
      id,
      poller.instance,
      { channel: 'sbx', upstream_id: `u${i}`, status: 'submitted', next_poll_at: now - 1, lease_owner: null, lease_until: 0 },
      false,
    );
  }
  const another = () =>
    new TaskPoller({ repository, registry, finisher: {} as TaskFinisher, logger: pino({ level: 'silent' }), notify: () => undefined, ...options });
  return { poller, repository, batches, polledAt, another };
}

describe('task poller claims', () => {
  it('takes several claims in one pass, up to the channel concurrency', async () => {
    const { poller, batches } = await setup(50, { concurrency: 4, claimBatch: 10 });
    await poller.tick();
    await poller.stop();
    // Four polls of a full claim each; the 10 tasks left wait for a free poll.
    expect(batches).toEqual([10, 10, 10, 10]);
  });

  it('stops claiming when a claim comes back short', async () => {
    const { poller, batches, repository } = await setup(15, { concurrency: 4, claimBatch: 10 });
    await poller.tick();
    await poller.stop();
    expect(batches.reduce((sum, n) => sum + n, 0)).toBe(15);
    expect(await repository.countByStatus()).toEqual({ running: 15 });
  });

  it('ticks less often while nothing is due, yet polls a task of its own when it is due', async () => {
    // One task, polled about every second (the policy above, ±20 %); an idle scheduler waits up to 700 ms between ticks.
    const { poller, polledAt, repository } = await setup(1, { concurrency: 4, claimBatch: 10, tickMs: 20, maxIdleTickMs: 700 });
    poller.start();
    const until = Date.now() + 3_000;
    let dueAt: number | undefined;
    while (polledAt.length < 2 && Date.now() < until) {
      await new Promise((resolve) => setTimeout(resolve, 5));
      if (polledAt.length === 1 && dueAt === undefined) {
        const task = await repository.get('t0');
        if (task?.pollCount === 1) dueAt = task.nextPollAt;
      }
    }
    await poller.stop();
    expect(polledAt).toHaveLength(2);
    // Polled when due, not at the next idle tick (the waits had grown to 20, 40, … 640 ms).
    expect(dueAt).toBeDefined();
    expect(polledAt[1]).toBeGreaterThanOrEqual(dueAt!);
    expect(polledAt[1] - dueAt!).toBeLessThan(120);
  });

  it("keeps a task it is still polling past its lease (the heartbeat), and a stopped process's task moves once the lease ran out", async () => {
    // The upstream takes 1.2 s to answer a poll; the lease is 300 ms, renewed every 100 ms.
    const { poller, repository, another } = await setup(1, { concurrency: 4, claimBatch: 10, leaseMs: 300, pollTakesMs: 1_200 });
    const rival = another();
    poller.start();
    const polling = poller.tick();
    await new Promise((resolve) => setTimeout(resolve, 700));
    // Well past one lease: the rival finds nothing to claim, the task is still ours.
    expect(await repository.claimDue('sbx', Date.now(), 10, rival.instance, 300)).toEqual([]);
    expect((await repository.get('t0'))?.leaseOwner).toBe(poller.instance);
    await polling;
    await poller.stop();

    // Now a process takes the task and stops beating without giving it back (as a kill -9 would).
    await repository.update('t0', null, { next_poll_at: Date.now() - 1, lease_owner: null, lease_until: 0 }, false);
    const [taken] = await repository.claimDue('sbx', Date.now(), 10, 'dead-process', 300);
    expect(taken?.id).toBe('t0');
    expect(await repository.claimDue('sbx', Date.now(), 10, rival.instance, 300)).toEqual([]);
    await new Promise((resolve) => setTimeout(resolve, 350));
    const [moved] = await repository.claimDue('sbx', Date.now(), 10, rival.instance, 300);
    expect(moved?.id).toBe('t0');
  });
});
