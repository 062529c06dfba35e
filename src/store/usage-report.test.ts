import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTempDatabase } from '../../test/helpers/postgres.js';
import { openStore, type OpenedStore } from './open-store.js';
import { UsageRepository, type UsageRow } from './usage-repository.js';
import { neededColumns, rollupTableFor, USAGE_GROUP_BYS, UsageReports, type UsageQuery } from './usage-report.js';
import { DAY_MS, FINE_ROLLUP, ROLLUP_TABLES } from './usage-rollup.js';

const DAY0 = 19_700 * DAY_MS; // 2023-12-09

function row(id: number, overrides: Partial<UsageRow>): UsageRow {
  return {
    request_id: `r${id}`,
    key_id: 'k1',
    account_id: 'acct_a',
    surface: 'openai',
    operation: 'chat',
    model: 'm1',
    channel: 'c1',
    provider: 'p',
    upstream_model: 'u',
    outcome: 'ok',
    stream: 0,
    input_tokens: 100,
    output_tokens: 10,
    cache_read_tokens: 30,
    cache_write_tokens: 5,
    reasoning_tokens: 2,
    units: 0,
    cost_nusd: 500_000_000,
    latency_ms: 100,
    created_at: DAY0 + 1000,
    ...overrides,
  };
}

const backends: Array<[string, () => Promise<{ url: string; cleanup: () => Promise<void> }>]> = [
  [
    'sqlite',
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'gengate-report-'));
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

describe.each(backends)('usage reports on %s', (_name, makeBackend) => {
  let store: OpenedStore;
  let cleanup: () => Promise<void>;
  let reports: UsageReports;

  beforeAll(async () => {
    const backend = await makeBackend();
    cleanup = backend.cleanup;
    store = await openStore(backend.url);
    await store.db
      .insertInto('api_keys')
      .values({
        id: 'k1',
        name: 'ci key',
        key_hash: 'h1',
        key_hint: 'gg-k1',
        models: null,
        expires_at: null,
        revoked_at: null,
        created_at: 0,
        account_id: 'acct_a',
      })
      .execute();
    await store.db
      .insertInto('accounts')
      .values({ id: 'acct_a', email: 'a@example.com', role: 'member', password_hash: null, models: null, created_at: 0, updated_at: 0, disabled_at: null })
      .execute();
    const usage = new UsageRepository(store.db, store.sqlite, store.dialect);
    await usage.insertMany([
      row(1, {}),
      row(2, { outcome: 'upstream', latency_ms: 2000, cost_nusd: 0 }),
      row(3, { created_at: DAY0 + 2 * DAY_MS + 5, model: 'm2', cost_nusd: 3_000_000_000 }),
      row(4, { key_id: 'k2', account_id: 'acct_b', cost_nusd: 1_000_000_000, channel: '=cmd' }),
      row(5, { key_id: 'master', account_id: null, surface: 'anthropic', units: 3 }),
      row(6, { created_at: DAY0 - DAY_MS, cost_nusd: 100_000_000_000 }),
    ]);
    reports = new UsageReports(store.db);
  });

  afterAll(async () => {
    await store?.close();
    await cleanup?.();
  });

  it('reports every day of the range in order, with zeros on days without usage, and totals', async () => {
    const report = await reports.summarize({ from: DAY0, to: DAY0 + 2 * DAY_MS + 10, groupBy: 'day' });
    expect(report.from).toBe(DAY0);
    expect(report.to).toBe(DAY0 + 3 * DAY_MS);
    expect(report.rows.map((r) => [r.group, r.label, r.requests])).toEqual([
      ['2023-12-09', '2023-12-09', 4],
      ['2023-12-10', '2023-12-10', 0],
      ['2023-12-11', '2023-12-11', 1],
    ]);
    expect(report.rows[1].latencyMs).toEqual({ p50: null, p95: null, p99: null });
    expect(report.totals).toMatchObject({
      requests: 5,
      errors: 1,
      inputTokens: 500,
      cacheReadTokens: 150,
      cacheWriteTokens: 25,
      outputTokens: 50,
      reasoningTokens: 10,
      units: 3,
    });
    // r1 $0.50 + r2 $0 + r3 $3 + r4 $1 + r5 $0.50 (r6 is the day before the range).
    expect(report.totals.costNusd).toBe(5_000_000_000);
    expect(report.totals.costUsd).toBe(5);
    expect(report.totals.latencyMs.p99).toBeGreaterThan(1640);
    expect(report.truncated).toBe(false);
  });

  it('groups by key, account, model, channel and surface, costliest first, with names for keys and accounts', async () => {
    const range = { from: DAY0, to: DAY0 + 2 * DAY_MS };
    const byKey = await reports.summarize({ ...range, groupBy: 'key' });
    expect(byKey.rows.map((r) => [r.group, r.label, r.requests])).toEqual([
      ['k1', 'ci key', 3],
      ['k2', 'k2', 1],
      ['master', 'master key', 1],
    ]);
    const byAccount = await reports.summarize({ ...range, groupBy: 'account' });
    expect(byAccount.rows.map((r) => [r.group, r.label])).toEqual([
      ['acct_a', 'a@example.com'],
      ['acct_b', 'acct_b'],
      ['', '(no account)'],
    ]);
    expect((await reports.summarize({ ...range, groupBy: 'model' })).rows.map((r) => r.group)).toEqual(['m2', 'm1']);
    expect((await reports.summarize({ ...range, groupBy: 'surface' })).rows.map((r) => [r.group, r.requests])).toEqual([
      ['openai', 4],
      ['anthropic', 1],
    ]);
    expect((await reports.summarize({ ...range, groupBy: 'channel', filters: { key: 'k2' } })).rows.map((r) => r.group)).toEqual(['=cmd']);
  });

  it('limits a scoped report to its account whatever the filters say', async () => {
    const range = { from: DAY0 - DAY_MS, to: DAY0 + 2 * DAY_MS };
    const own = await reports.summarize({ ...range, groupBy: 'key', accountScope: 'acct_a' });
    expect(own.rows.map((r) => r.group)).toEqual(['k1']);
    expect(own.totals.requests).toBe(4);
    const other = await reports.summarize({ ...range, groupBy: 'key', accountScope: 'acct_a', filters: { account: 'acct_b' } });
    expect(other.rows).toEqual([]);
    expect(other.totals.requests).toBe(0);
  });

  it('refuses a range over 366 days or backwards', async () => {
    await expect(reports.summarize({ from: 0, to: 367 * DAY_MS, groupBy: 'day' })).rejects.toMatchObject({ kind: 'invalid_request', code: 'invalid_range' });
    await expect(reports.summarize({ from: DAY0, to: DAY0 - 1, groupBy: 'day' })).rejects.toMatchObject({ kind: 'invalid_request' });
    await expect(reports.summarize({ from: 0, to: 365 * DAY_MS, groupBy: 'day' })).resolves.toMatchObject({ truncated: false });
  });

  it('pages raw records newest first, scoped and filtered', async () => {
    const first = await reports.records({ limit: 3 });
    expect(first.map((r) => r.requestId)).toEqual(['r6', 'r5', 'r4']);
    const next = await reports.records({ limit: 10, beforeId: first[2].id });
    expect(next.map((r) => r.requestId)).toEqual(['r3', 'r2', 'r1']);
    expect((await reports.records({ limit: 10, accountScope: 'acct_b' })).map((r) => r.requestId)).toEqual(['r4']);
    expect((await reports.records({ limit: 10, filters: { account: '' } })).map((r) => [r.requestId, r.accountId])).toEqual([['r5', null]]);
    expect(first[0]).toMatchObject({ keyId: 'k1', accountId: 'acct_a', costNusd: 100_000_000_000, costUsd: 100, stream: false, cacheReadTokens: 30 });
  });
});

describe('the rollup table a report reads', () => {
  it('is the smallest one holding every column the report groups or filters by besides day and account', () => {
    const name = (query: Pick<UsageQuery, 'groupBy' | 'filters'>) => rollupTableFor(query).name;
    expect(name({ groupBy: 'day' })).toBe('usage_daily_by_surface');
    expect(name({ groupBy: 'account', filters: { account: 'a' } })).toBe('usage_daily_by_surface');
    expect(name({ groupBy: 'model', filters: { account: 'a' } })).toBe('usage_daily_by_model');
    expect(name({ groupBy: 'key' })).toBe('usage_daily_by_key');
    expect(name({ groupBy: 'account', filters: { key: 'k' } })).toBe('usage_daily_by_key');
    expect(name({ groupBy: 'channel', filters: { channel: 'c' } })).toBe('usage_daily_by_channel');
    expect(name({ groupBy: 'surface' })).toBe('usage_daily_by_surface');
    expect(name({ groupBy: 'model', filters: { key: 'k' } })).toBe('usage_daily');
    expect(name({ groupBy: 'day', filters: { model: 'm', surface: 's' } })).toBe('usage_daily');
  });
});

describe.each(backends)('usage reports on %s give the same answer from every rollup table that can serve them', (_name, makeBackend) => {
  let store: OpenedStore;
  let cleanup: () => Promise<void>;
  let reports: UsageReports;

  beforeAll(async () => {
    const backend = await makeBackend();
    cleanup = backend.cleanup;
    store = await openStore(backend.url);
    let state = 7;
    const next = () => {
      state = (state * 1_664_525 + 1_013_904_223) >>> 0;
      return state / 2 ** 32;
    };
    const pick = <T>(values: readonly T[]): T => values[Math.floor(next() * values.length)];
    const usage = new UsageRepository(store.db, store.sqlite, store.dialect);
    let id = 0;
    for (let batch = 0; batch < 6; batch++) {
      const rows: UsageRow[] = [];
      for (let i = 0; i < 300; i++) {
        // Integer nUSD: every table's sums are identical in any order.
        const fresh = row(id++, {
          key_id: pick(['k1', 'k2', 'k3', 'master']),
          account_id: pick(['acct_a', 'acct_b', null]),
          surface: pick(['openai', 'anthropic', 'gemini']),
          operation: pick(['chat', 'embed']),
          model: pick(['m1', 'm2', 'm3']),
          channel: pick(['c1', 'c2', '']),
          outcome: next() < 0.9 ? 'ok' : 'upstream',
          input_tokens: Math.floor(next() * 5000),
          units: Math.floor(next() * 3),
          cost_nusd: Math.floor(next() * 4_000_000_000),
          latency_ms: Math.floor(next() ** 3 * 100_000),
          created_at: DAY0 + Math.floor(next() * 10 * DAY_MS),
        });
        rows.push(next() < 0.1 && rows.length > 0 ? { ...pick(rows), cost_nusd: 999 } : fresh);
      }
      await usage.insertMany(rows);
    }
    reports = new UsageReports(store.db);
  });

  afterAll(async () => {
    await store?.close();
    await cleanup?.();
  });

  const scopes: Array<Pick<UsageQuery, 'filters' | 'accountScope'>> = [
    {},
    { filters: { account: 'acct_a' } },
    { filters: { account: '' } },
    { accountScope: 'acct_b' },
    { filters: { key: 'k2' } },
    { filters: { model: 'm1' }, accountScope: 'acct_a' },
    { filters: { channel: '' } },
    { filters: { surface: 'anthropic' } },
    { filters: { key: 'k1', model: 'm2' } },
    { filters: { channel: 'c1', surface: 'gemini', account: 'acct_b' } },
  ];

  it.each(USAGE_GROUP_BYS)('grouped by %s', async (groupBy) => {
    let compared = 0;
    for (const scope of scopes) {
      for (const [from, to] of [
        [DAY0, DAY0 + 9 * DAY_MS],
        [DAY0 + 2 * DAY_MS + 5, DAY0 + 5 * DAY_MS],
      ]) {
        const query: UsageQuery = { from, to, groupBy, ...scope };
        const fine = await reports.summarize(query, FINE_ROLLUP);
        expect(fine.totals.requests).toBeGreaterThan(0);
        const needed = neededColumns(query);
        for (const table of ROLLUP_TABLES) {
          if (table === FINE_ROLLUP || ![...needed].every((column) => table.keyColumns.includes(column))) continue;
          expect({ table: table.name, query, report: await reports.summarize(query, table) }).toEqual({ table: table.name, query, report: fine });
          compared++;
        }
        expect(await reports.summarize(query)).toEqual(fine);
      }
    }
    expect(compared).toBeGreaterThanOrEqual(10);
  });
});
