/**
 * The sweep of queued tasks whose submit lease ran out, and the submit's write-back racing it:
 * the sweep fails a task only at its second look; between the two, a late write-back wins (and
 * the sweep's failure then changes nothing); after the failure, the write-back changes nothing
 * and the upstream id is kept on the failed row only.
 */
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { reserve } from '../ledger/reservations.js';
import type { MediaStore } from '../media/media-store.js';
import { type OpenedStore, openStore } from '../store/open-store.js';
import { TasksRepository } from '../store/tasks-repository.js';
import { sweepInterruptedSubmits } from './interrupted-submits.js';
import { TaskFinisher } from './task-finisher.js';

let store: OpenedStore | undefined;
afterEach(async () => {
  await store?.close();
});

const LEASE_MS = 1_000;

async function setup() {
  store = await openStore('sqlite::memory:');
  const repository = new TasksRepository(store.db, store);
  const finisher = new TaskFinisher({
    repository,
    media: {} as MediaStore,
    logger: pino({ level: 'silent' }),
    allowPrivateUrls: false,
    maxResultBytes: 1_000_000,
    downloadTimeoutMs: 1_000,
    notify: () => undefined,
  });
  const sweep = (now: number) => sweepInterruptedSubmits({ repository, finisher, instance: 'sweeper', leaseMs: LEASE_MS, claimBatch: 10 }, now);
  const created = Date.now();
  await repository.insertQueued(
    {
      id: 't1',
      owner: 'k',
      surface: 'imagegen1',
      operation: 'image.generate',
      model: 'owner/model',
      request: { model: 'owner/model', prompt: 'p' },
      priceNusd: 5,
      callbackToken: 'tok',
      createdAt: created,
      deadlineAt: created + 3_600_000,
      leaseOwner: 'submitter',
      leaseUntil: created + 100,
    },
    reserve({ id: 't1', owner: 'k', amountNusd: 5, at: created }),
  );
  const accepted = { channel: 'c', upstream_id: 'up-1', status: 'submitted' as const, lease_owner: null, lease_until: 0, poll_count: 0 };
  return { repository, sweep, created, accepted };
}

describe('interrupted submits', () => {
  it('leaves a queued task alone while its submit lease holds', async () => {
    const { repository, sweep, created } = await setup();
    expect(await sweep(created + 50)).toBe(false);
    expect(await repository.get('t1')).toMatchObject({ status: 'queued', leaseOwner: 'submitter', pollCount: 0 });
  });

  it('takes the task at its first look and fails and refunds it at the second, a lease later', async () => {
    const { repository, sweep, created } = await setup();
    expect(await sweep(created + 200)).toBe(true);
    expect(await repository.get('t1')).toMatchObject({ status: 'queued', leaseOwner: 'sweeper', pollCount: 1 });
    await sweep(created + 200 + LEASE_MS / 2);
    expect((await repository.get('t1'))?.status).toBe('queued');
    await sweep(created + 200 + LEASE_MS + 1);
    expect(await repository.get('t1')).toMatchObject({ status: 'failed', error: { code: 'submit_interrupted' } });
    expect((await repository.ledger('t1')).map((entry) => entry.kind)).toEqual(['reserve', 'refund']);
  });

  it('lets a late write-back win between the two looks; the sweep then changes nothing', async () => {
    const { repository, sweep, created, accepted } = await setup();
    await sweep(created + 200);
    expect(await repository.recordSubmission('t1', accepted)).toMatchObject({ status: 'submitted', upstreamId: 'up-1', leaseOwner: undefined });
    await sweep(created + 200 + LEASE_MS + 1);
    expect(await repository.get('t1')).toMatchObject({ status: 'submitted', upstreamId: 'up-1' });
    expect((await repository.ledger('t1')).map((entry) => entry.kind)).toEqual(['reserve']);
  });

  it('after the failure, the write-back changes nothing; the upstream id is kept on the failed row, once', async () => {
    const { repository, sweep, created, accepted } = await setup();
    await sweep(created + 200);
    await sweep(created + 200 + LEASE_MS + 1);
    expect(await repository.recordSubmission('t1', accepted)).toBeUndefined();
    expect(await repository.recordLateUpstream('t1', { channel: 'c', upstream_id: 'up-1' })).toMatchObject({ status: 'failed', upstreamId: 'up-1' });
    expect(await repository.recordLateUpstream('t1', { channel: 'c', upstream_id: 'up-2' })).toBeUndefined();
    expect((await repository.ledger('t1')).map((entry) => entry.kind)).toEqual(['reserve', 'refund']);
  });

  it('never records a submission over a task that already has an upstream id', async () => {
    const { repository, accepted } = await setup();
    expect(await repository.recordSubmission('t1', accepted)).toBeDefined();
    expect(await repository.recordSubmission('t1', { ...accepted, upstream_id: 'up-2' })).toBeUndefined();
    expect((await repository.get('t1'))?.upstreamId).toBe('up-1');
  });
});
