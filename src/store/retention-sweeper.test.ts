import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTempDatabase, type TempDatabase } from '../../test/helpers/postgres.js';
import { reserve } from '../ledger/reservations.js';
import { usageRow } from '../ledger/usage-row.js';
import { type OpenedStore, openStore } from './open-store.js';
import { RetentionSweeper } from './retention-sweeper.js';
import { TasksRepository } from './tasks-repository.js';
import { UsageRepository } from './usage-repository.js';

const DAY = 86_400_000;
const NOW = Date.parse('2026-11-27T12:00:00Z');

async function seed(store: OpenedStore): Promise<void> {
  const usage = new UsageRepository(store.db, store.sqlite, store.dialect);
  const rows = [];
  for (let age = 0; age < 10; age++) {
    rows.push(
      usageRow({
        requestId: `req-${age}`,
        keyId: 'k',
        accountId: null,
        surface: 'openai',
        operation: 'chat',
        model: 'm',
        stream: false,
        route: { channel: 'c', provider: 'p', upstreamModel: 'm' },
        outcome: 'ok',
        usage: { inputTokens: 10, outputTokens: 5 },
        units: 0,
        costNusd: 1_000,
        latencyMs: 1,
        createdAt: NOW - age * DAY - 1,
      }),
    );
  }
  await usage.insertMany(rows);
  const tasks = new TasksRepository(store.db, store);
  for (const [id, finishedDaysAgo, status] of [
    ['old-done', 5, 'succeeded'],
    ['new-done', 1, 'succeeded'],
    ['old-running', undefined, 'running'],
  ] as const) {
    const createdAt = NOW - 6 * DAY;
    await tasks.insertQueued(
      {
        id,
        owner: 'k',
        surface: 'imgtask',
        operation: 'image.imagine',
        model: 'm',
        request: { model: 'm', prompt: 'p' },
        priceNusd: 0,
        callbackToken: `tok-${id}`,
        createdAt,
        deadlineAt: NOW + DAY,
        leaseOwner: 'x',
        leaseUntil: 0,
      },
      reserve({ id, owner: 'k', amountNusd: 0, at: createdAt }),
    );
    await tasks.update(id, null, { status, finished_at: finishedDaysAgo === undefined ? null : NOW - finishedDaysAgo * DAY }, false);
  }
  for (const [id, status, age] of [
    ['d-old', 'delivered', 40],
    ['d-dead', 'dead', 40],
    ['d-pending', 'pending', 40],
    ['d-new', 'delivered', 2],
  ] as const) {
    await store.db
      .insertInto('webhook_deliveries')
      .values({
        id,
        task_id: 'new-done',
        owner: 'k',
        url: 'https://hooks.example/x',
        host: 'hooks.example:443',
        body: '{}',
        status,
        attempts: 1,
        next_attempt_at: 0,
        lease_until: 0,
        last_error: null,
        created_at: NOW - age * DAY,
        delivered_at: null,
      })
      .execute();
  }
  for (const age of [400, 10]) {
    await store.db
      .insertInto('audit_log')
      .values({ at: NOW - age * DAY, actor_kind: 'cli', actor_id: null, actor_label: 'cli', action: 'key.create', target: null, details: null, ip: null })
      .execute();
  }
}

async function counts(store: OpenedStore) {
  const count = async (table: 'usage_records' | 'tasks' | 'webhook_deliveries' | 'audit_log') =>
    Number(
      (
        await store.db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  const rollup = await store.db
    .selectFrom('usage_daily')
    .select((eb) => eb.fn.sum<number>('requests').as('n'))
    .executeTakeFirstOrThrow();
  return {
    usage: await count('usage_records'),
    rolledUpRequests: Number(rollup.n),
    tasks: (await store.db.selectFrom('tasks').select('id').orderBy('id').execute()).map((row) => row.id),
    deliveries: (await store.db.selectFrom('webhook_deliveries').select('id').orderBy('id').execute()).map((row) => row.id),
    audit: await count('audit_log'),
  };
}

for (const dialect of ['sqlite', 'postgres'] as const) {
  describe(`RetentionSweeper on ${dialect}`, () => {
    let database: TempDatabase | undefined;
    let store: OpenedStore;
    beforeAll(async () => {
      if (dialect === 'postgres') database = await createTempDatabase();
      store = await openStore(database?.url ?? 'sqlite::memory:');
      await seed(store);
    });
    afterAll(async () => {
      await store?.close();
      await database?.drop();
    });

    it('deletes in small batches only what outlived its retention, and keeps the rollups reports read', async () => {
      expect(await counts(store)).toMatchObject({ usage: 10, rolledUpRequests: 10, audit: 2 });
      const sweeper = new RetentionSweeper(
        store.db,
        { usageRecordsDays: 3, tasksDays: 2, webhookDeliveriesDays: 30, auditDays: 365 },
        { batch: 2, pauseMs: 1 },
      );
      const swept = await sweeper.sweep(NOW);
      // Usage rows 3..9 days old go (7 of them, in batches of 2); the rollups still count all ten calls.
      expect(swept).toEqual({ usageRecordsDays: 7, tasksDays: 1, webhookDeliveriesDays: 2, auditDays: 1 });
      expect(await counts(store)).toEqual({
        usage: 3,
        rolledUpRequests: 10,
        tasks: ['new-done', 'old-running'],
        deliveries: ['d-new', 'd-pending'],
        audit: 1,
      });
      // A second sweep finds nothing more.
      expect(await sweeper.sweep(NOW)).toEqual({ usageRecordsDays: 0, tasksDays: 0, webhookDeliveriesDays: 0, auditDays: 0 });
    });

    it('keeps everything a retention of 0 covers', async () => {
      const sweeper = new RetentionSweeper(store.db, { usageRecordsDays: 0, tasksDays: 0, webhookDeliveriesDays: 0, auditDays: 0 });
      expect(sweeper.active).toBe(false);
      const before = await counts(store);
      await sweeper.sweep(NOW + 10_000 * DAY);
      expect(await counts(store)).toEqual(before);
    });
  });
}
