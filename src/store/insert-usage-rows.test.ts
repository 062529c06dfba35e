import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createTempDatabase, type TempDatabase } from '../../test/helpers/postgres.js';
import { openStore, type OpenedStore } from './open-store.js';
import { insertUsageRows, type UsageRow } from './usage-repository.js';

function row(requestId: string, overrides: Partial<UsageRow> = {}): UsageRow {
  return {
    request_id: requestId,
    key_id: 'k1',
    surface: 'openai',
    operation: 'chat',
    model: 'm1',
    channel: 'c1',
    provider: 'openai',
    upstream_model: 'm1',
    outcome: 'timeout',
    stream: 0,
    input_tokens: 3,
    output_tokens: 0,
    cache_read_tokens: 0,
    cache_write_tokens: 0,
    reasoning_tokens: 0,
    units: 0,
    cost_nusd: 0,
    latency_ms: 5,
    created_at: 1_700_000_000_000,
    error_type: 'upstream.timeout',
    ...overrides,
  };
}

const ledgerEntry = { task_id: 't1', owner: 'k1', kind: 'reserve' as const, amount_nusd: 10, created_at: 1 };

async function stored(store: OpenedStore): Promise<Array<{ request_id: string; error_type: string | null | undefined }>> {
  return store.db.selectFrom('usage_records').select(['request_id', 'error_type']).orderBy('request_id').execute();
}

async function dailyRequests(store: OpenedStore): Promise<number> {
  const rows = await store.db.selectFrom('usage_daily').select('requests').execute();
  return rows.reduce((sum, r) => sum + Number(r.requests), 0);
}

describe('usage rows on SQLite: prepared statements inside the caller’s transaction', () => {
  let store: OpenedStore;
  beforeEach(async () => {
    store = await openStore('sqlite::memory:');
  });
  afterEach(() => store.close());

  it('takes the prepared-statement path (the raw handle is there) and commits with the transaction', async () => {
    const sqlite = store.sqlite;
    if (!sqlite) throw new Error('an SQLite store has its raw handle');
    const wrapped = vi.spyOn(sqlite, 'transaction');
    await store.db.transaction().execute(async (trx) => {
      await trx.insertInto('task_ledger').values(ledgerEntry).execute();
      await insertUsageRows(trx, [row('a'), row('b', { error_type: undefined, outcome: 'ok' })], store);
    });
    expect(await stored(store)).toEqual([
      { request_id: 'a', error_type: 'upstream.timeout' },
      { request_id: 'b', error_type: null },
    ]);
    expect(await dailyRequests(store)).toBe(2);
    expect(await store.db.selectFrom('task_ledger').selectAll().execute()).toHaveLength(1);
    // The rows went through better-sqlite3's transaction (prepared statements), not the query builder.
    expect(wrapped).toHaveBeenCalledTimes(1);
  });

  it('rolls back with the transaction: rows, rollups and the other writes of the change', async () => {
    await expect(
      store.db.transaction().execute(async (trx) => {
        await trx.insertInto('task_ledger').values(ledgerEntry).execute();
        await insertUsageRows(trx, [row('a')], store);
        throw new Error('the change fails after its usage row');
      }),
    ).rejects.toThrow('the change fails');
    expect(await stored(store)).toEqual([]);
    expect(await dailyRequests(store)).toBe(0);
    expect(await store.db.selectFrom('task_ledger').selectAll().execute()).toEqual([]);
  });

  it('nests as a savepoint: a batch that fails undoes only itself, the outer transaction goes on', async () => {
    await store.db.transaction().execute(async (trx) => {
      await trx.insertInto('task_ledger').values(ledgerEntry).execute();
      // The second row breaks NOT NULL: the whole batch, its first row too, is undone.
      const broken = [row('x'), row('y', { model: null as unknown as string })];
      await expect(insertUsageRows(trx, broken, store)).rejects.toThrow(/NOT NULL/);
      await insertUsageRows(trx, [row('z')], store);
    });
    expect(await stored(store)).toEqual([{ request_id: 'z', error_type: 'upstream.timeout' }]);
    expect(await dailyRequests(store)).toBe(1);
    expect(await store.db.selectFrom('task_ledger').selectAll().execute()).toHaveLength(1);
  });

  it('skips a request id already stored, and counts it once', async () => {
    await store.db.transaction().execute((trx) => insertUsageRows(trx, [row('a')], store));
    await store.db.transaction().execute((trx) => insertUsageRows(trx, [row('a', { error_type: 'gateway.internal' }), row('b')], store));
    expect(await stored(store)).toEqual([
      { request_id: 'a', error_type: 'upstream.timeout' },
      { request_id: 'b', error_type: 'upstream.timeout' },
    ]);
    expect(await dailyRequests(store)).toBe(2);
  });
});

describe('usage rows on PostgreSQL: the query builder path stores the same', () => {
  let database: TempDatabase;
  let store: OpenedStore;
  beforeAll(async () => {
    database = await createTempDatabase();
    store = await openStore(database.url);
  });
  afterAll(async () => {
    await store?.close();
    await database?.drop();
  });

  it('stores the error type (none when absent) and rolls back with the transaction', async () => {
    await store.db.transaction().execute((trx) => insertUsageRows(trx, [row('a'), row('b', { error_type: undefined })], store));
    await expect(
      store.db.transaction().execute(async (trx) => {
        await insertUsageRows(trx, [row('c')], store);
        throw new Error('undone');
      }),
    ).rejects.toThrow('undone');
    expect(await stored(store)).toEqual([
      { request_id: 'a', error_type: 'upstream.timeout' },
      { request_id: 'b', error_type: null },
    ]);
    expect(await dailyRequests(store)).toBe(2);
  });
});
