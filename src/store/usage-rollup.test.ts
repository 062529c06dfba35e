import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTempDatabase } from '../../test/helpers/postgres.js';
import { LATENCY_BOUNDS, LATENCY_COLUMNS } from './latency-histogram.js';
import { usageRollupsMigration } from './migrations/008-usage-rollups.js';
import { usageDimensionRollupsMigration } from './migrations/011-usage-dimension-rollups.js';
import { moneyNusdMigration } from './migrations/019-money-nusd.js';
import { openStore, type OpenedStore } from './open-store.js';
import { UsageRepository, type UsageRow } from './usage-repository.js';
import { DAY_MS, DIMENSION_ROLLUPS, FINE_ROLLUP, ROLLUP_TABLES, type RollupTable } from './usage-rollup.js';

/** A small deterministic generator, so a failure can be replayed. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1_664_525 + 1_013_904_223) >>> 0;
    return state / 2 ** 32;
  };
}

function pick<T>(next: () => number, values: readonly T[]): T {
  return values[Math.floor(next() * values.length)];
}

function randomRow(next: () => number, id: number): UsageRow {
  return {
    request_id: `req_${id}`,
    key_id: pick(next, ['k1', 'k2', 'k3']),
    account_id: pick(next, ['acct_a', 'acct_b', null, undefined]),
    surface: pick(next, ['openai', 'anthropic']),
    operation: pick(next, ['chat', 'embed']),
    model: pick(next, ['m1', 'm2']),
    channel: pick(next, ['c1', 'c2', '']),
    provider: 'p',
    upstream_model: 'u',
    outcome: pick(next, ['ok', 'ok', 'ok', 'upstream', 'client_closed']),
    stream: 0,
    input_tokens: Math.floor(next() * 5000),
    output_tokens: Math.floor(next() * 900),
    cache_read_tokens: Math.floor(next() * 100),
    cache_write_tokens: Math.floor(next() * 50),
    reasoning_tokens: Math.floor(next() * 30),
    units: Math.floor(next() * 3),
    cost_nusd: Math.round(next() * 1e6) * 10,
    latency_ms: Math.floor(next() ** 3 * 2_000_000),
    created_at: 1_700_000_000_000 + Math.floor(next() * 5 * DAY_MS),
  };
}

/** The rollup computed naively from the stored rows, keyed like `table`. */
function expectedRollup(stored: Record<string, unknown>[], table: RollupTable = FINE_ROLLUP): Map<string, Record<string, number>> {
  const out = new Map<string, Record<string, number>>();
  for (const row of stored) {
    const full: Record<string, unknown> = { ...row, day: Math.floor(Number(row.created_at) / DAY_MS), account_id: row.account_id ?? '' };
    const key = table.keyColumns.map((c) => full[c]).join('|');
    let sums = out.get(key);
    if (!sums) {
      sums = Object.fromEntries(
        [
          'requests',
          'errors',
          'input_tokens',
          'output_tokens',
          'cache_read_tokens',
          'cache_write_tokens',
          'reasoning_tokens',
          'units',
          'cost_nusd',
          'latency_ms_sum',
          ...LATENCY_COLUMNS,
        ].map((c) => [c, 0]),
      );
      out.set(key, sums);
    }
    sums.requests++;
    if (row.outcome !== 'ok') sums.errors++;
    for (const c of ['input_tokens', 'output_tokens', 'cache_read_tokens', 'cache_write_tokens', 'reasoning_tokens', 'units', 'cost_nusd'])
      sums[c] += Number(row[c]);
    const latency = Number(row.latency_ms);
    sums.latency_ms_sum += latency;
    let bucket = 0;
    while (bucket < LATENCY_BOUNDS.length && latency >= LATENCY_BOUNDS[bucket]) bucket++;
    sums[LATENCY_COLUMNS[bucket]]++;
  }
  return out;
}

async function actualRollup(store: OpenedStore, table: RollupTable = FINE_ROLLUP): Promise<Map<string, Record<string, number>>> {
  const rows = (await store.db.selectFrom(table.name).selectAll().execute()) as unknown as Record<string, unknown>[];
  const out = new Map<string, Record<string, number>>();
  for (const row of rows) {
    const sums: Record<string, number> = {};
    for (const [column, value] of Object.entries(row)) if (!table.keyColumns.includes(column)) sums[column] = Number(value);
    out.set(table.keyColumns.map((c) => row[c]).join('|'), sums);
  }
  return out;
}

function expectSame(actual: Map<string, Record<string, number>>, expected: Map<string, Record<string, number>>): void {
  expect([...actual.keys()].sort()).toEqual([...expected.keys()].sort());
  for (const [key, sums] of expected) {
    const got = actual.get(key) ?? {};
    for (const [column, value] of Object.entries(sums)) {
      expect({ key, column, value: got[column] }).toEqual({ key, column, value });
    }
  }
}

async function storedRows(store: OpenedStore): Promise<Record<string, unknown>[]> {
  return (await store.db.selectFrom('usage_records').selectAll().execute()) as unknown as Record<string, unknown>[];
}

const backends: Array<[string, () => Promise<{ url: string; cleanup: () => Promise<void> }>, boolean]> = [
  [
    'sqlite (prepared statements)',
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'gengate-rollup-'));
      return { url: `sqlite:${join(dir, 'g.db')}`, cleanup: async () => rmSync(dir, { recursive: true, force: true }) };
    },
    true,
  ],
  [
    'sqlite (query builder)',
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'gengate-rollup-'));
      return { url: `sqlite:${join(dir, 'g.db')}`, cleanup: async () => rmSync(dir, { recursive: true, force: true }) };
    },
    false,
  ],
  [
    'postgres',
    async () => {
      const temp = await createTempDatabase();
      return { url: temp.url, cleanup: () => temp.drop() };
    },
    false,
  ],
];

describe.each(backends)('usage rollup on %s', (_name, makeBackend, raw) => {
  let store: OpenedStore;
  let cleanup: () => Promise<void>;
  let usage: UsageRepository;

  beforeAll(async () => {
    const backend = await makeBackend();
    cleanup = backend.cleanup;
    store = await openStore(backend.url);
    usage = new UsageRepository(store.db, raw ? store.sqlite : undefined, store.dialect);
  });

  afterAll(async () => {
    await store?.close();
    await cleanup?.();
  });

  it('equals a GROUP BY of the stored rows after random batches with duplicate request ids, within and across batches', async () => {
    const next = random(42);
    let id = 0;
    const sent: UsageRow[] = [];
    for (let batch = 0; batch < 12; batch++) {
      const rows: UsageRow[] = [];
      const size = 1 + Math.floor(next() * 400);
      for (let i = 0; i < size; i++) {
        const r = next();
        // A duplicate carries other numbers: counting it, or counting the wrong copy, shows.
        if (r < 0.15 && sent.length > 0) rows.push({ ...pick(next, sent), input_tokens: 999_999, latency_ms: 1 });
        else if (r < 0.2 && rows.length > 0) rows.push({ ...pick(next, rows), output_tokens: 777_777 });
        else rows.push(randomRow(next, id++));
      }
      sent.push(...rows);
      await usage.insertMany(rows);
    }
    const stored = await storedRows(store);
    expect(stored.length).toBe(id);
    expect(stored.some((row) => Number(row.input_tokens) === 999_999 || Number(row.output_tokens) === 777_777)).toBe(false);
    for (const table of ROLLUP_TABLES) expectSame(await actualRollup(store, table), expectedRollup(stored, table));
    // A whole batch folded in again (journal recovery after a lost answer) changes nothing.
    const before = await Promise.all(ROLLUP_TABLES.map((table) => actualRollup(store, table)));
    await usage.insertMany(sent.slice(0, 500));
    for (const [i, table] of ROLLUP_TABLES.entries()) expectSame(await actualRollup(store, table), before[i]);
  });

  /** Runs `redo` on the float-money schema the migration was written for (019 undone, then done again). */
  async function beforeMoneyMigration(redo: (db: Kysely<unknown>) => Promise<void>): Promise<void> {
    const money = moneyNusdMigration(store.dialect);
    const db = store.db as unknown as Kysely<unknown>;
    await money.down(db);
    await redo(db);
    await money.up(db);
  }

  it('stores the account of each row (none when a row has none) and migration 008 backfills the rollup from stored rows', async () => {
    const stored = await storedRows(store);
    expect(stored.filter((row) => row.account_id === 'acct_a').length).toBeGreaterThan(0);
    expect(stored.filter((row) => row.account_id === null).length).toBeGreaterThan(0);
    const migration = usageRollupsMigration(store.dialect);
    await beforeMoneyMigration(async (db) => {
      await migration.down(db);
      await migration.up(db);
    });
    expectSame(await actualRollup(store), expectedRollup(stored));
  });

  it('migration 011 creates the per-dimension rollups and backfills them from usage_daily', async () => {
    const stored = await storedRows(store);
    await beforeMoneyMigration(async (db) => {
      await usageDimensionRollupsMigration.down(db);
      await usageDimensionRollupsMigration.up(db);
    });
    for (const table of DIMENSION_ROLLUPS) {
      const actual = await actualRollup(store, table);
      expect(actual.size).toBeGreaterThan(1);
      expectSame(actual, expectedRollup(stored, table));
    }
  });
});
