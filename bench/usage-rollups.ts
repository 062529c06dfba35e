/**
 * Usage rollups at scale: fills a fresh database with usage rows through the real write path
 * (`UsageRepository.insertMany`, which also maintains the daily rollups), then times the dashboard's
 * usage queries (the functions behind `GET /usage` and `GET /usage.csv`) and the cost of writing
 * one batch with every rollup, with only the fine `usage_daily` one, and without any.
 *
 *   npm run bench:usage -- [--rows 10000000] [--batch 2000] [--runs 7] [--postgres <url>] [--keep]
 *
 * Spread: 90 days, 200 keys over 20 accounts, 30 models (each served by 2 of 10 channels),
 * 6 surfaces; a key is mostly used by one application: its own surface (95 %, else one other)
 * and six favourite models (97 %, else any), each mostly on its first channel (90 %). Request ids are
 * random (as the gateway's are), so the unique index sees random inserts.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { usageCsv } from '../src/admin/usage-csv.js';
import { openStore, type OpenedStore } from '../src/store/open-store.js';
import { addToRollup, UsageRepository, type UsageRow } from '../src/store/usage-repository.js';
import { UsageReports, type UsageQuery } from '../src/store/usage-report.js';
import { DAY_MS, FINE_ROLLUP, ROLLUP_TABLES, RollupBatch, rollupUpsertSql } from '../src/store/usage-rollup.js';

function option(name: string, fallback: string): string {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 && process.argv[at + 1] ? process.argv[at + 1] : fallback;
}

const ROWS = Number(option('rows', '10000000'));
const BATCH = Number(option('batch', '2000'));
const RUNS = Number(option('runs', '7'));
const POSTGRES = option('postgres', '');
const KEEP = process.argv.includes('--keep');
/** Rows beyond those written through the full path are only folded into the rollup (see `fillRollupOnly`). */
const ROLLUP_ROWS = Number(option('rollup-rows', '0'));

const SURFACES = ['openai', 'anthropic', 'gemini', 'imagegen1', 'imagegen2', 'imgtask'];
const OPERATIONS = ['chat', 'chat', 'chat', 'chat', 'embed', 'image.generate'];
const ALPHABET = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

let seed = 12345;
function random(): number {
  seed = (seed * 1_664_525 + 1_013_904_223) >>> 0;
  return seed / 2 ** 32;
}

function requestId(): string {
  let out = 'req_';
  for (let i = 0; i < 24; i++) out += ALPHABET[(random() * 62) | 0];
  return out;
}

/** A key's habits: its account, surface and favourite models. */
const KEYS = Array.from({ length: 200 }, (_, i) => ({
  id: `key${String(i).padStart(4, '0')}`,
  account: `acct${String(i % 20).padStart(2, '0')}`,
  surface: SURFACES[i % SURFACES.length],
  models: Array.from({ length: 6 }, (_, j) => (i * 7 + j * 5) % 30),
}));

function makeRow(index: number, total: number, end: number): UsageRow {
  const key = KEYS[Math.floor(random() ** 1.5 * KEYS.length)];
  const model = random() < 0.97 ? key.models[Math.floor(random() ** 2 * key.models.length)] : Math.floor(random() * 30);
  const channel = (model + (random() < 0.9 ? 0 : 3)) % 10;
  const latency = Math.round(Math.exp(6.2 + 1.1 * Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random())));
  const input = Math.floor(random() * 4000);
  const output = Math.floor(random() * 800);
  return {
    request_id: requestId(),
    key_id: key.id,
    account_id: key.account,
    surface: random() < 0.95 ? key.surface : SURFACES[(SURFACES.indexOf(key.surface) + 1) % SURFACES.length],
    operation: OPERATIONS[model % OPERATIONS.length],
    model: `model-${String(model).padStart(2, '0')}`,
    channel: `channel-${channel}`,
    provider: 'openai',
    upstream_model: `upstream-${model}`,
    outcome: random() < 0.97 ? 'ok' : 'upstream',
    stream: random() < 0.5 ? 1 : 0,
    input_tokens: input,
    output_tokens: output,
    cache_read_tokens: random() < 0.3 ? Math.floor(input / 2) : 0,
    cache_write_tokens: 0,
    reasoning_tokens: 0,
    units: 0,
    cost_nusd: input * 2_500 + output * 10_000,
    latency_ms: latency,
    // Rows arrive in time order over 90 days, as a running gateway writes them.
    created_at: end - 90 * DAY_MS + Math.floor((index / total) * 90 * DAY_MS),
  };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

async function time(fn: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await fn();
  return performance.now() - started;
}

async function fill(store: OpenedStore, rows: number): Promise<number> {
  const usage = new UsageRepository(store.db, store.sqlite, store.dialect);
  const end = Date.now();
  const started = performance.now();
  let lastReport = started;
  for (let done = 0; done < rows; done += BATCH) {
    const batch: UsageRow[] = [];
    for (let i = done; i < Math.min(rows, done + BATCH); i++) batch.push(makeRow(i, rows, end));
    await usage.insertMany(batch);
    if (performance.now() - lastReport > 15_000) {
      lastReport = performance.now();
      const rate = (done + batch.length) / ((lastReport - started) / 1000);
      console.error(`  ${done + batch.length} rows, ${Math.round(rate)} rows/s`);
    }
  }
  return (performance.now() - started) / 1000;
}

/**
 * On a slow shared host the full path cannot write ten million rows in the time there is: rows
 * past the fully written ones go only into the rollup (folded the same way, upserted the same
 * way), so the report queries, which read nothing else, see the rollup ten million rows make.
 */
async function fillRollupOnly(store: OpenedStore, skip: number, rows: number): Promise<number> {
  const end = Date.now();
  const started = performance.now();
  for (let done = skip; done < rows; done += 200_000) {
    const batch = new RollupBatch();
    for (let i = done; i < Math.min(rows, done + 200_000); i++) batch.add(makeRow(i - skip, rows - skip, end));
    await store.db.transaction().execute((trx) => addToRollup(trx, batch, ROLLUP_TABLES, store.dialect));
  }
  return (performance.now() - started) / 1000;
}

interface WriteCost {
  withRollup: number;
  fineOnly?: number;
  without: number;
}

/**
 * One 1,000-row batch through the repository, against the fine rollup alone (what the writer did
 * before migration 011) and the bare insert it did before rollups. `spreadMs`: the time
 * the batch's rows cover (a running gateway's batch covers a second or a minute; rows spread over
 * 90 days touch a rollup row each, the worst case).
 */
async function writeCost(store: OpenedStore, spreadMs: number): Promise<WriteCost> {
  const end = Date.now();
  const makeBatch = () =>
    Array.from({ length: 1000 }, (_, i) => ({ ...makeRow(i, 1000, end), created_at: end - spreadMs + Math.floor((i / 1000) * spreadMs) }));
  const usage = new UsageRepository(store.db, store.sqlite, store.dialect);
  const runs = 15;
  const withRollup: number[] = [];
  const fineOnly: number[] = [];
  const without: number[] = [];
  const columns = Object.keys(makeRow(0, 1, end));
  const sqlite = store.sqlite;
  const statement = sqlite?.prepare(
    `INSERT INTO usage_records (${columns.join(', ')}) VALUES (${columns.map((c) => `@${c}`).join(', ')}) ON CONFLICT (request_id) DO NOTHING`,
  );
  const fineUpsert = sqlite?.prepare(rollupUpsertSql(FINE_ROLLUP));
  for (let run = 0; run < runs; run++) {
    const a = makeBatch();
    const b = makeBatch();
    const c = makeBatch();
    withRollup.push(await time(() => usage.insertMany(a)));
    if (sqlite && statement && fineUpsert) {
      const insert = sqlite.transaction((rows: UsageRow[]) => {
        for (const row of rows) statement.run(row);
      });
      without.push(await time(async () => insert(b)));
      // What the writer did before migration 011: rows plus `usage_daily` only.
      const insertFine = sqlite.transaction((rows: UsageRow[]) => {
        const batch = new RollupBatch();
        for (const row of rows) if (statement.run(row).changes === 1) batch.add(row);
        for (const values of batch.values()) fineUpsert.run(values);
      });
      fineOnly.push(await time(async () => insertFine(c)));
    } else {
      without.push(
        await time(() =>
          store.db.transaction().execute(async (trx) => {
            for (let i = 0; i < b.length; i += 500)
              await trx
                .insertInto('usage_records')
                .values(b.slice(i, i + 500))
                .onConflict((c) => c.column('request_id').doNothing())
                .execute();
          }),
        ),
      );
      fineOnly.push(
        await time(() =>
          store.db.transaction().execute(async (trx) => {
            const batch = new RollupBatch();
            for (let i = 0; i < c.length; i += 500) {
              const inserted = await trx
                .insertInto('usage_records')
                .values(c.slice(i, i + 500))
                .onConflict((conflict) => conflict.column('request_id').doNothing())
                .returningAll()
                .execute();
              for (const row of inserted) batch.add(row);
            }
            // The writer before migration 011 went through the query builder, `usage_daily` only.
            await addToRollup(trx, batch, [FINE_ROLLUP]);
          }),
        ),
      );
    }
  }
  return {
    withRollup: median(withRollup.slice(3)),
    fineOnly: fineOnly.length ? median(fineOnly.slice(3)) : undefined,
    without: median(without.slice(3)),
  };
}

async function queries(store: OpenedStore): Promise<Record<string, number>> {
  const reports = new UsageReports(store.db);
  const to = Date.now();
  const from = to - 29 * DAY_MS;
  const cases: Array<[string, () => Promise<unknown>]> = [
    ['GET /usage 30 days by day', () => reports.summarize({ from, to, groupBy: 'day' })],
    ['GET /usage 30 days by model', () => reports.summarize({ from, to, groupBy: 'model' })],
    ['GET /usage 30 days by key', () => reports.summarize({ from, to, groupBy: 'key' })],
    ['GET /usage 90 days by account', () => reports.summarize({ from: to - 89 * DAY_MS, to, groupBy: 'account' })],
    ['GET /usage 30 days by channel', () => reports.summarize({ from, to, groupBy: 'channel' })],
    ['GET /usage 30 days by surface', () => reports.summarize({ from, to, groupBy: 'surface' })],
    ['GET /usage 30 days by model, one account filter', () => reports.summarize({ from, to, groupBy: 'model', filters: { account: 'acct03' } })],
    ['GET /usage 30 days by day, one key filter', () => reports.summarize({ from, to, groupBy: 'day', filters: { key: 'key0007' } })],
    ['GET /usage 30 days by model, one key filter (fine table)', () => reports.summarize({ from, to, groupBy: 'model', filters: { key: 'key0007' } })],
    ['GET /usage 30 days by model, one surface filter (fine table)', () => reports.summarize({ from, to, groupBy: 'model', filters: { surface: 'gemini' } })],
    [
      'GET /usage 30 days by day, one model and one channel filter (fine table)',
      () => reports.summarize({ from, to, groupBy: 'day', filters: { model: 'model-07', channel: 'channel-7' } }),
    ],
    ['GET /usage 30 days by day, one member', () => reports.summarize({ from, to, groupBy: 'day', accountScope: 'acct03' } satisfies UsageQuery)],
    ['GET /usage 30 days by model, one member', () => reports.summarize({ from, to, groupBy: 'model', accountScope: 'acct03' })],
    ['GET /usage.csv 30 days by key', async () => usageCsv(await reports.summarize({ from, to, groupBy: 'key' }))],
    ['GET /usage/records first page (50), one member', () => reports.records({ limit: 51, accountScope: 'acct03' })],
  ];
  const out: Record<string, number> = {};
  for (const [name, fn] of cases) {
    await fn();
    const samples: number[] = [];
    for (let i = 0; i < RUNS; i++) samples.push(await time(fn));
    out[name] = median(samples);
  }
  return out;
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'gengate-usage-bench-'));
  const url = POSTGRES || `sqlite:${join(dir, 'usage.db')}`;
  const store = await openStore(url);
  try {
    console.error(`filling ${ROWS} rows into ${POSTGRES ? 'PostgreSQL' : url} in batches of ${BATCH}…`);
    const seconds = await fill(store, ROWS);
    const rollupSeconds = ROLLUP_ROWS > ROWS ? await fillRollupOnly(store, ROWS, ROLLUP_ROWS) : 0;
    const rollupRows: Record<string, number> = {};
    for (const table of ROLLUP_TABLES) {
      rollupRows[table.name] = Number(
        (
          await store.db
            .selectFrom(table.name)
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    }
    const timings = await queries(store);
    const costs = { oneMinute: await writeCost(store, 60_000), ninetyDays: await writeCost(store, 90 * DAY_MS) };
    const size = POSTGRES ? undefined : statSync(join(dir, 'usage.db')).size;
    const result = {
      backend: store.dialect,
      rows: ROWS,
      batch: BATCH,
      fillSeconds: Math.round(seconds),
      fillRowsPerSecond: Math.round(ROWS / seconds),
      rollupOnlyRows: ROLLUP_ROWS > ROWS ? ROLLUP_ROWS - ROWS : 0,
      rollupOnlySeconds: Math.round(rollupSeconds),
      rollupRows,
      databaseMB: size === undefined ? undefined : Math.round(size / 1e6),
      medianMs: Object.fromEntries(Object.entries(timings).map(([k, v]) => [k, Math.round(v * 10) / 10])),
      batchOf1000Ms: Object.fromEntries(
        Object.entries(costs).map(([spread, cost]) => [
          spread,
          {
            withEveryRollup: Math.round(cost.withRollup * 100) / 100,
            withFineRollupOnly: cost.fineOnly === undefined ? undefined : Math.round(cost.fineOnly * 100) / 100,
            withoutRollup: Math.round(cost.without * 100) / 100,
          },
        ]),
      ),
    };
    console.log(JSON.stringify(result, null, 2));
  } finally {
    await store.close();
    if (!KEEP) rmSync(dir, { recursive: true, force: true });
    else console.error(`kept ${dir}`);
  }
}

await main();
