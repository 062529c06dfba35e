import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTempDatabase } from '../../test/helpers/postgres.js';
import { openStore, type OpenedStore } from './open-store.js';
import { insertDelivery, MAX_LAST_ERROR_CHARS, WebhookDeliveriesRepository } from './webhook-deliveries-repository.js';

const T0 = 1_750_000_000_000;

const backends: Array<[string, () => Promise<{ url: string; cleanup: () => Promise<void> }>]> = [
  ['sqlite', async () => ({ url: 'sqlite::memory:', cleanup: async () => {} })],
  [
    'postgres',
    async () => {
      const temp = await createTempDatabase();
      return { url: temp.url, cleanup: () => temp.drop() };
    },
  ],
];

function delivery(taskId: string, version: number, now = T0) {
  return { id: `${taskId}.${version}`, taskId, owner: 'key_1', url: 'https://hooks.example.com/in', body: `{"id":"${taskId}","v":${version}}`, now };
}

describe.each(backends)('webhook deliveries on %s', (_name, makeBackend) => {
  let store: OpenedStore;
  let repository: WebhookDeliveriesRepository;
  let cleanup: () => Promise<void>;

  beforeAll(async () => {
    const backend = await makeBackend();
    cleanup = backend.cleanup;
    store = await openStore(backend.url);
    repository = new WebhookDeliveriesRepository(store.db, store.dialect);
  });

  afterAll(async () => {
    await store.close();
    await cleanup();
  });

  afterEach(async () => {
    await store.db.deleteFrom('webhook_deliveries').execute();
  });

  it('inserts a pending row once per id, also inside a transaction', async () => {
    await insertDelivery(store.db, delivery('task_a', 1));
    await store.db.transaction().execute((trx) => insertDelivery(trx, { ...delivery('task_a', 1), body: '{"changed":true}', now: T0 + 5 }));
    await store.db.transaction().execute((trx) => insertDelivery(trx, delivery('task_a', 2, T0 + 10)));

    const rows = await repository.listForTask('task_a');
    expect(rows.map((row) => row.id)).toEqual(['task_a.1', 'task_a.2']);
    expect(rows[0]).toMatchObject({
      task_id: 'task_a',
      owner: 'key_1',
      url: 'https://hooks.example.com/in',
      body: '{"id":"task_a","v":1}',
      status: 'pending',
      attempts: 0,
      next_attempt_at: T0,
      lease_until: 0,
      last_error: null,
      created_at: T0,
      delivered_at: null,
    });
    expect(await repository.pendingCount()).toBe(2);
  });

  it('claims due rows under a lease: a second claim before it expires gets nothing', async () => {
    await insertDelivery(store.db, delivery('task_b', 1));
    await insertDelivery(store.db, delivery('task_b', 2, T0 + 100));
    await insertDelivery(store.db, delivery('task_later', 1, T0 + 60_000));

    const first = await repository.claimDue(T0 + 100, 10, 30_000);
    expect(first.map((row) => row.id)).toEqual(['task_b.1', 'task_b.2']);
    expect(first[0].lease_until).toBe(T0 + 100 + 30_000);

    expect(await repository.claimDue(T0 + 200, 10, 30_000)).toEqual([]);
    // The lease ran out (the claimer died): the rows are due again.
    const again = await repository.claimDue(T0 + 100 + 30_000, 10, 30_000);
    expect(again.map((row) => row.id)).toEqual(['task_b.1', 'task_b.2']);
  });

  it('claims at most the limit, oldest due first', async () => {
    for (let i = 0; i < 5; i++) await insertDelivery(store.db, delivery(`task_${i}`, 1, T0 + (5 - i)));
    const claimed = await repository.claimDue(T0 + 10, 2, 1000);
    expect(claimed.map((row) => row.id)).toEqual(['task_4.1', 'task_3.1']);
    expect(await repository.claimDue(T0 + 10, 0, 1000)).toEqual([]);
  });

  it('records delivered, rescheduled and dead deliveries; a finished one is not changed again', async () => {
    await insertDelivery(store.db, delivery('task_c', 1));
    await insertDelivery(store.db, delivery('task_c', 2));
    await repository.claimDue(T0, 10, 30_000);

    await repository.reschedule('task_c.1', 1, T0 + 5_000, 'receiver answered HTTP 500');
    let [one] = await repository.listForTask('task_c');
    expect(one).toMatchObject({ status: 'pending', attempts: 1, next_attempt_at: T0 + 5_000, lease_until: 0, last_error: 'receiver answered HTTP 500' });
    expect(await repository.claimDue(T0 + 4_999, 10, 30_000)).toEqual([]);
    expect((await repository.claimDue(T0 + 5_000, 10, 30_000)).map((row) => row.id)).toEqual(['task_c.1']);

    await repository.markDelivered('task_c.1', T0 + 5_100);
    await repository.markDead('task_c.2', 'x'.repeat(5000), 3);
    let two: typeof one | undefined;
    [one, two] = await repository.listForTask('task_c');
    expect(one).toMatchObject({ status: 'delivered', attempts: 2, delivered_at: T0 + 5_100, last_error: null, lease_until: 0 });
    expect(two).toMatchObject({ status: 'dead', attempts: 3, lease_until: 0 });
    expect(two?.last_error?.length).toBe(MAX_LAST_ERROR_CHARS);

    // A late outcome (say, from a claimer whose lease ran out) does not reopen a finished delivery.
    await repository.reschedule('task_c.1', 9, T0, 'late');
    await repository.markDead('task_c.1', 'late');
    await repository.markDelivered('task_c.2', T0);
    [one, two] = await repository.listForTask('task_c');
    expect(one).toMatchObject({ status: 'delivered', attempts: 2 });
    expect(two).toMatchObject({ status: 'dead', delivered_at: null });
    expect(await repository.pendingCount()).toBe(0);
    expect(await repository.claimDue(T0 + 1_000_000, 10, 30_000)).toEqual([]);
  });

  describe('finding 3: fair claims', () => {
    afterEach(async () => {
      await store.db.deleteFrom('api_keys').execute();
    });

    async function key(id: string, accountId: string | null): Promise<void> {
      await store.db
        .insertInto('api_keys')
        .values({
          id,
          name: id,
          key_hash: `hash_${id}`,
          key_hint: 'gg-…',
          models: null,
          expires_at: null,
          revoked_at: null,
          created_at: T0,
          account_id: accountId,
        })
        .execute();
    }

    async function enqueue(id: string, owner: string, url: string, now: number): Promise<void> {
      await insertDelivery(store.db, { id, taskId: id.split('.')[0], owner, url, body: '{}', now });
    }

    it('keeps each receiver host:port on the row', async () => {
      await enqueue('task_h.1', 'key_1', 'https://Hooks.Example.com:8443/in?x=1', T0);
      const [row] = await repository.listForTask('task_h');
      expect(row.host).toBe('hooks.example.com:8443');
    });

    it("takes each tenant's oldest due delivery before any tenant's second, a tenant being the key's account", async () => {
      await key('key_a1', 'acct_a');
      await key('key_a2', 'acct_a');
      await key('key_b', 'acct_b');
      for (let i = 0; i < 6; i++) await enqueue(`task_a${i}.1`, i % 2 ? 'key_a1' : 'key_a2', 'https://a.example/hook', T0 + i);
      await enqueue('task_b.1', 'key_b', 'https://b.example/hook', T0 + 50);
      await enqueue('task_c.1', 'key_lone', 'https://c.example/hook', T0 + 60);

      const claimed = await repository.claimDue(T0 + 100, 3, 30_000);
      // Oldest-first alone would take three of account A's (its two keys are one tenant).
      expect(claimed.map((row) => row.id)).toEqual(['task_a0.1', 'task_b.1', 'task_c.1']);
      expect((await repository.claimDue(T0 + 100, 2, 30_000)).map((row) => row.id)).toEqual(['task_a1.1', 'task_a2.1']);
    });

    it('caps the deliveries in flight per tenant and per receiver host, counting every lease held', async () => {
      const caps = { perTenant: 2, perHost: 3 };
      for (let i = 0; i < 5; i++) await enqueue(`task_a${i}.1`, 'key_a', 'https://slow.example/hook', T0 + i);
      for (let i = 0; i < 5; i++) await enqueue(`task_b${i}.1`, 'key_b', 'https://slow.example/other', T0 + 10 + i);
      await enqueue('task_c.1', 'key_c', 'https://fast.example/hook', T0 + 20);

      const first = await repository.claimDue(T0 + 100, 10, 30_000, caps);
      // slow.example's three places go A, B, A (A's cap is two); C's host is its own.
      expect(first.map((row) => row.id)).toEqual(['task_a0.1', 'task_a1.1', 'task_b0.1', 'task_c.1']);
      // Still leased (in flight here or in another process): nothing more for A, B or slow.example.
      expect(await repository.claimDue(T0 + 200, 10, 30_000, caps)).toEqual([]);

      // A's first delivery ends: one place is free on slow.example, and A is below its cap first in line.
      await repository.reschedule('task_a0.1', 1, T0 + 60_000, 'timed out');
      expect((await repository.claimDue(T0 + 300, 10, 30_000, caps)).map((row) => row.id)).toEqual(['task_a2.1']);
      // Leases that ran out count no longer.
      const later = await repository.claimDue(T0 + 100 + 30_000, 10, 30_000, caps);
      expect(later.map((row) => row.id)).toEqual(['task_a1.1', 'task_b0.1', 'task_c.1']);
    });

    it("defers a failing receiver's due deliveries of one owner at once, leaving everyone else's", async () => {
      await enqueue('task_x.1', 'key_a', 'https://down.example/hook', T0);
      await enqueue('task_x.2', 'key_a', 'https://down.example/hook?n=2', T0 + 1);
      await enqueue('task_x.3', 'key_a', 'https://up.example/hook', T0 + 2);
      await enqueue('task_y.1', 'key_b', 'https://down.example/hook', T0 + 3);
      await enqueue('task_x.4', 'key_a', 'https://down.example/hook', T0 + 4);
      const [claimed] = await repository.claimDue(T0 + 10, 1, 30_000);
      expect(claimed.id).toBe('task_x.1');
      // task_x.4 is leased by another process meanwhile: its claimer decides about it.
      await store.db
        .updateTable('webhook_deliveries')
        .set({ lease_until: T0 + 30_000 })
        .where('id', '=', 'task_x.4')
        .execute();

      await repository.deferReceiver('task_x.1', 'key_a', 'down.example', T0 + 10, T0 + 40_000);
      const rows = Object.fromEntries([...(await repository.listForTask('task_x')), ...(await repository.listForTask('task_y'))].map((row) => [row.id, row]));
      expect(rows['task_x.1']).toMatchObject({ next_attempt_at: T0 + 40_000, lease_until: 0, attempts: 0, status: 'pending' });
      expect(rows['task_x.2']).toMatchObject({ next_attempt_at: T0 + 40_000, lease_until: 0, attempts: 0 });
      expect(rows['task_x.3'].next_attempt_at).toBe(T0 + 2);
      expect(rows['task_y.1'].next_attempt_at).toBe(T0 + 3);
      expect(rows['task_x.4']).toMatchObject({ next_attempt_at: T0 + 4, lease_until: T0 + 30_000 });
    });
  });

  it('never hands the same row to two concurrent claimers', async () => {
    const total = 120;
    await store.db
      .insertInto('webhook_deliveries')
      .values(
        Array.from({ length: total }, (_, i) => ({
          id: `task_many.${i}`,
          task_id: 'task_many',
          owner: 'key_1',
          url: 'https://hooks.example.com/in',
          host: 'hooks.example.com',
          body: '{}',
          status: 'pending' as const,
          attempts: 0,
          next_attempt_at: T0 + (i % 7),
          lease_until: 0,
          last_error: null,
          created_at: T0,
          delivered_at: null,
        })),
      )
      .execute();
    const claimer = async (): Promise<string[]> => {
      const mine: string[] = [];
      for (let round = 0; round < 100; round++) {
        const rows = await repository.claimDue(T0 + 10, 7, 60_000);
        if (rows.length === 0) break;
        mine.push(...rows.map((row) => row.id));
      }
      return mine;
    };
    const results = await Promise.all([claimer(), claimer(), claimer(), claimer()]);
    const all = results.flat();
    expect(all.length).toBe(total);
    expect(new Set(all).size).toBe(total);
  });
});
