/**
 * How many due tasks one scheduler pass takes: claims of `claimBatch` each, repeated while
 * they come back full and the channel has polls free — not one claim per pass, which capped a
 * channel at `claimBatch` tasks per tick whatever its concurrency.
 */
import { pino } from 'pino';
import { afterEach, describe, expect, it, vi } from 'vitest';
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
  /** The provider's wait before a task's next poll (±20 % jitter). */
  pollEveryMs?: number;
  /** Each single poll stays upstream until this resolves (default: answers at once). */
  upstream?: Promise<void>;
}

async function setup(due: number, { pollEveryMs = 1_000, upstream, ...options }: SetupOptions) {
  store = await openStore('sqlite::memory:');
  const repository = new TasksRepository(store.db, store);
  const batches: number[] = [];
  const polledAt: number[] = [];
  const provider = {
    operations: new Set(['image.imagine']),
    pollPolicy: () => ({ firstDelayMs: pollEveryMs, factor: 1, maxDelayMs: pollEveryMs, deadlineMs: 3_600_000, maxBatch: 10 }),
    async poll(): Promise<TaskObservation> {
      batches.push(1);
      polledAt.push(Date.now());
      await upstream;
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
    // One task, polled again 2–3 s after its first poll (2.5 s ±20 %). An idle scheduler doubles its wait from 40 ms
    // (ticks about 80, 240, 560, 1 200, 2 480, 5 040 ms after that poll), so without the task's own due time the
    // second poll would wait for the tick after 5 s: more than 2 s late.
    const { poller, polledAt, repository } = await setup(1, { concurrency: 4, claimBatch: 10, tickMs: 40, maxIdleTickMs: 10_000, pollEveryMs: 2_500 });
    const updates = vi.spyOn(repository, 'update');
    poller.start();
    await waitFor(() => polledAt.length >= 2, 20_000);
    await poller.stop();
    expect(polledAt).toHaveLength(2);
    // The first poll's answer set when the task is due next.
    const dueAt = updates.mock.calls.map(([, , patch]) => patch.next_poll_at).find((at) => at !== undefined);
    expect(dueAt).toBeDefined();
    expect(polledAt[1]).toBeGreaterThanOrEqual(dueAt!);
    // Polled when due, not at the next idle tick (room for a loaded host's late timers, well under the 2 s an idle tick would add).
    expect(polledAt[1] - dueAt!).toBeLessThan(1_500);
  }, 30_000);

  it("keeps a task it is still polling past its lease (the heartbeat), and a stopped process's task moves once the lease ran out", async () => {
    // The upstream holds the poll until the test answers; the lease is 1.5 s, renewed every 500 ms.
    const LEASE_MS = 1_500;
    let answer!: () => void;
    const upstream = new Promise<void>((resolve) => (answer = resolve));
    const { poller, repository, polledAt, another } = await setup(1, { concurrency: 4, claimBatch: 10, leaseMs: LEASE_MS, upstream });
    const rival = another();
    poller.start();
    const polling = poller.tick();
    await waitFor(() => polledAt.length === 1, 10_000);
    // The claim came before the poll began, so its lease ran out by then; the heartbeat kept it.
    const firstLeaseOverBy = Date.now() + LEASE_MS;
    await waitFor(() => Date.now() > firstLeaseOverBy + 200, 10_000);
    expect(await repository.claimDue('sbx', Date.now(), 10, rival.instance, LEASE_MS)).toEqual([]);
    const held = await repository.get('t0');
    expect(held?.leaseOwner).toBe(poller.instance);
    expect(held!.leaseUntil).toBeGreaterThan(firstLeaseOverBy);
    answer();
    await polling;
    await poller.stop();
    expect(polledAt).toHaveLength(1);

    // Now a process takes the task and stops beating without giving it back (as a kill -9 would).
    await repository.update('t0', null, { next_poll_at: Date.now() - 1, lease_owner: null, lease_until: 0 }, false);
    const [taken] = await repository.claimDue('sbx', Date.now(), 10, 'dead-process', LEASE_MS);
    expect(taken?.id).toBe('t0');
    expect(await repository.claimDue('sbx', Date.now(), 10, rival.instance, LEASE_MS)).toEqual([]);
    // The rival keeps trying; it gets the task once the dead process's lease ran out, not before.
    let moved: Awaited<ReturnType<TasksRepository['claimDue']>> = [];
    let movedAt = 0;
    await waitFor(async () => {
      movedAt = Date.now();
      moved = await repository.claimDue('sbx', movedAt, 10, rival.instance, LEASE_MS);
      return moved.length > 0;
    }, 10_000);
    expect(moved.map((task) => task.id)).toEqual(['t0']);
    expect(movedAt).toBeGreaterThanOrEqual(taken!.leaseUntil);
  }, 30_000);
});

/** Checks `done` every 20 ms until it holds or `timeoutMs` passes (the test's assertions then say what was missing). */
async function waitFor(done: () => boolean | Promise<boolean>, timeoutMs: number): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!(await done()) && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 20));
}
