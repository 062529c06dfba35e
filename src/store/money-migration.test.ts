import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTempDatabase } from '../../test/helpers/postgres.js';
import { usageRollupsMigration } from './migrations/008-usage-rollups.js';
import { usageDimensionRollupsMigration } from './migrations/011-usage-dimension-rollups.js';
import { migrateStore, type OpenedStore, openStore } from './open-store.js';
import { UsageReports } from './usage-report.js';
import { DAY_MS, ROLLUP_TABLES } from './usage-rollup.js';

const DAY0 = 19_700 * DAY_MS;

/** Costs as the float schema held them (`nUSD / 10⁹`, the way the old writer stored them), and the integer each must become. */
const TYPICAL: Array<[usd: number, nusd: number]> = [
  [0.000012345, 12_345],
  [0.1 + 0.2, 300_000_000],
  [0.000000001, 1],
  [0, 0],
  [1.5, 1_500_000_000],
  [123.456789012, 123_456_789_012],
  [0.04455, 44_550_000],
  [0.000075, 75_000],
];

/** A deterministic spread of small costs, in nUSD, so a failure can be replayed. */
function spread(count: number): number[] {
  let state = 7;
  return Array.from({ length: count }, () => {
    state = (state * 1_664_525 + 1_013_904_223) >>> 0;
    return state % 50_000_000;
  });
}

function usageRow(id: number, usd: number, day: number) {
  return {
    request_id: `r${id}`,
    key_id: `k${id % 3}`,
    surface: 'openai',
    operation: 'chat',
    model: `m${id % 4}`,
    channel: 'c',
    provider: 'p',
    upstream_model: 'u',
    outcome: 'ok',
    stream: 0,
    input_tokens: 10,
    output_tokens: 5,
    cache_read_tokens: 0,
    cache_write_tokens: 0,
    reasoning_tokens: 0,
    units: 0,
    cost_usd: usd,
    latency_ms: 100,
    created_at: DAY0 + day * DAY_MS + id,
    account_id: id % 2 === 0 ? 'acct_a' : null,
  };
}

function taskRow(id: string, priceUsd: number) {
  return {
    id,
    owner: 'k1',
    surface: 'imagegen1',
    operation: 'image.generate',
    model: 'img',
    request: '{}',
    status: 'succeeded',
    progress: 1,
    price_usd: priceUsd,
    callback_token: `cb_${id}`,
    created_at: DAY0,
    updated_at: DAY0,
    deadline_at: DAY0 + DAY_MS,
    next_poll_at: 0,
    poll_count: 0,
    lease_until: 0,
    version: 1,
  };
}

const cents = (usd: number) => Math.round(usd * 100);

const backends: Array<[string, () => Promise<{ url: string; cleanup: () => Promise<void> }>]> = [
  [
    'sqlite',
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'gengate-money-'));
      return { url: `sqlite:${join(dir, 'g.db')}`, cleanup: async () => rmSync(dir, { recursive: true, force: true }) };
    },
  ],
  [
    'postgres',
    async () => {
      const temp = await createTempDatabase();
      return { url: temp.url, cleanup: () => temp.drop() };
    },
  ],
];

describe.each(backends)('migration 019 (money in nUSD) on %s', (_name, makeBackend) => {
  let store: OpenedStore;
  let cleanup: () => Promise<void>;
  let db: Kysely<Record<string, Record<string, unknown>>>;
  const spreadNusd = spread(600);
  let usdTotalsBefore: Record<string, number>;
  let rollupRowsBefore: Record<string, number>;
  let applied: string[];

  const usdSum = async (table: string, column: string) =>
    Number((await sql<{ s: unknown }>`SELECT SUM(${sql.ref(column)}) AS s FROM ${sql.table(table)}`.execute(db)).rows[0].s ?? 0);

  beforeAll(async () => {
    const backend = await makeBackend();
    cleanup = backend.cleanup;
    store = await openStore(backend.url, { migrate: false });
    db = store.db as unknown as typeof db;
    await migrateStore(store, '018-stored-response-items');
    // Usage rows as the float schema stored them: the typical values, then the spread over five days.
    const rows = [...TYPICAL.map(([usd], i) => usageRow(i, usd, 0)), ...spreadNusd.map((nusd, i) => usageRow(TYPICAL.length + i, nusd / 1e9, i % 5))];
    for (let i = 0; i < rows.length; i += 100)
      await db
        .insertInto('usage_records')
        .values(rows.slice(i, i + 100))
        .execute();
    // The rollups as the float schema summed them (the backfills add the float costs up, as the old writer did).
    const old = db as unknown as Kysely<unknown>;
    const rollups = usageRollupsMigration(store.dialect);
    await usageDimensionRollupsMigration.down(old);
    await rollups.down(old);
    await rollups.up(old);
    await usageDimensionRollupsMigration.up(old);
    // A task of $0.04 for three images, two produced: settled at its float share.
    await db.insertInto('tasks').values(taskRow('t1', 0.04)).execute();
    await db
      .insertInto('task_ledger')
      .values([
        { task_id: 't1', owner: 'k1', kind: 'reserve', amount_usd: 0.04, created_at: DAY0 },
        { task_id: 't1', owner: 'k1', kind: 'settle', amount_usd: (0.04 / 3) * 2, created_at: DAY0 + 1 },
      ])
      .execute();

    usdTotalsBefore = { usage_records: await usdSum('usage_records', 'cost_usd') };
    rollupRowsBefore = {};
    for (const table of ROLLUP_TABLES) {
      usdTotalsBefore[table.name] = await usdSum(table.name, 'cost_usd');
      rollupRowsBefore[table.name] = Number((await sql<{ n: unknown }>`SELECT count(*) AS n FROM ${sql.table(table.name)}`.execute(db)).rows[0].n);
    }
    applied = await migrateStore(store);
  });

  afterAll(async () => {
    await store?.close();
    await cleanup?.();
  });

  it('applies 019 first of those pending after 018', () => {
    expect(applied[0]).toBe('019-money-nusd');
  });

  it('gives every usage row its exact integer nUSD', async () => {
    const stored = await db.selectFrom('usage_records').select(['request_id', 'cost_nusd']).orderBy('id').execute();
    const expected = [...TYPICAL.map(([, nusd]) => nusd), ...spreadNusd];
    expect(stored.map((row) => Number(row.cost_nusd))).toEqual(expected);
    expect(stored.every((row) => typeof row.cost_nusd === 'number' && Number.isSafeInteger(row.cost_nusd))).toBe(true);
  });

  it('keeps every total to the cent, the rows exactly and each rollup within a nUSD a rollup row', async () => {
    const exact = [...TYPICAL.map(([, nusd]) => nusd), ...spreadNusd].reduce((sum, n) => sum + n, 0);
    expect(await usdSum('usage_records', 'cost_nusd')).toBe(exact);
    expect(cents(exact / 1e9)).toBe(cents(usdTotalsBefore.usage_records));
    for (const table of ROLLUP_TABLES) {
      const total = await usdSum(table.name, 'cost_nusd');
      expect(cents(total / 1e9), table.name).toBe(cents(usdTotalsBefore[table.name]));
      expect(Math.abs(total - exact), table.name).toBeLessThanOrEqual(rollupRowsBefore[table.name]);
    }
  });

  it('makes task prices and ledger amounts integers', async () => {
    const task = await db.selectFrom('tasks').select('price_nusd').where('id', '=', 't1').executeTakeFirstOrThrow();
    expect(task.price_nusd).toBe(40_000_000);
    const entries = await db.selectFrom('task_ledger').select(['kind', 'amount_nusd']).orderBy('id').execute();
    // (0.04 / 3) × 2 = 0.02666…: 26,666,666.67 nUSD, rounded once.
    expect(entries).toEqual([
      { kind: 'reserve', amount_nusd: 40_000_000 },
      { kind: 'settle', amount_nusd: 26_666_667 },
    ]);
  });

  it('drops the float columns', async () => {
    for (const [table, column] of [
      ['usage_records', 'cost_usd'],
      ['usage_daily', 'cost_usd'],
      ['usage_daily_by_surface', 'cost_usd'],
      ['tasks', 'price_usd'],
      ['task_ledger', 'amount_usd'],
    ]) {
      await expect(sql`SELECT ${sql.ref(column)} FROM ${sql.table(table)}`.execute(db), `${table}.${column}`).rejects.toThrow();
    }
  });

  it('reports the migrated history with the same total as before, to the cent', async () => {
    const report = await new UsageReports(store.db).summarize({ from: DAY0, to: DAY0 + 4 * DAY_MS, groupBy: 'model' });
    expect(report.totals.requests).toBe(TYPICAL.length + spreadNusd.length);
    expect(cents(report.totals.costNusd / 1e9)).toBe(cents(usdTotalsBefore.usage_records));
    expect(Number.isSafeInteger(report.totals.costNusd)).toBe(true);
  });
});
