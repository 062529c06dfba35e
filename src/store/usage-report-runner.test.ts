import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTempDatabase } from '../../test/helpers/postgres.js';
import { isGatewayError } from '../core/errors.js';
import { OffThreadUsageReports } from './off-thread-usage-reports.js';
import { openStore, type OpenedStore } from './open-store.js';
import { type UsageReportLimits, usageReportRunner } from './usage-report-runner.js';
import type { UsageQuery } from './usage-report.js';
import { DAY_MS, DIMENSION_ROLLUPS, RollupBatch } from './usage-rollup.js';
import { addToRollup } from './usage-repository.js';

const DAY0 = 19_000;
const DAYS = 100;
const KEYS = 50;
const BY_KEY: UsageQuery = { from: DAY0 * DAY_MS, to: (DAY0 + DAYS - 1) * DAY_MS, groupBy: 'key' };

/** 100 days × 50 keys: 5,000 rows in the per-key rollup. */
async function fill(store: OpenedStore): Promise<void> {
  const batch = new RollupBatch();
  for (let day = DAY0; day < DAY0 + DAYS; day++) {
    for (let key = 0; key < KEYS; key++) {
      batch.add({
        created_at: day * DAY_MS,
        account_id: 'acct',
        key_id: `key${key}`,
        model: 'm',
        channel: 'c',
        surface: 'openai',
        operation: 'chat',
        outcome: 'ok',
        input_tokens: 1,
        output_tokens: 1,
        cache_read_tokens: 0,
        cache_write_tokens: 0,
        reasoning_tokens: 0,
        cost_nusd: 1_000_000,
        latency_ms: 10,
      });
    }
  }
  await store.db.transaction().execute((trx) => addToRollup(trx, batch, [DIMENSION_ROLLUPS[0]], store.dialect));
}

async function refusal(work: Promise<unknown>): Promise<{ status: number; code?: string; message: string }> {
  const error = await work.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!isGatewayError(error)) throw new Error(`expected a GatewayError, got ${String(error)}`);
  return { status: error.status, code: error.code, message: error.message };
}

const backends: Array<[string, () => Promise<{ url: string; cleanup: () => Promise<void> }>]> = [
  ['in-memory SQLite', async () => ({ url: 'sqlite::memory:', cleanup: async () => {} })],
  [
    'SQLite file',
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'gengate-runner-'));
      return { url: `sqlite:${join(dir, 'g.db')}`, cleanup: async () => rmSync(dir, { recursive: true, force: true }) };
    },
  ],
  [
    'PostgreSQL',
    async () => {
      const temp = await createTempDatabase();
      return { url: temp.url, cleanup: () => temp.drop() };
    },
  ],
];

describe.each(backends)('usage report runner on %s (finding 5)', (name, makeBackend) => {
  let store: OpenedStore;
  let cleanup: () => Promise<void>;
  const runners: Array<{ close(): Promise<void> }> = [];
  const runner = (limits: Partial<UsageReportLimits> = {}) => {
    const made = usageReportRunner(store, { maxRows: 1_000_000, timeoutMs: 30_000, ...limits });
    runners.push(made);
    return made;
  };

  beforeAll(async () => {
    const backend = await makeBackend();
    cleanup = backend.cleanup;
    store = await openStore(backend.url);
    await fill(store);
  });

  afterAll(async () => {
    for (const made of runners) await made.close();
    await store?.close();
    await cleanup?.();
  });

  it('runs a SQLite file’s reports on a worker thread, others where they are', () => {
    expect(runner() instanceof OffThreadUsageReports).toBe(name === 'SQLite file');
  });

  it('answers a report within its bounds', async () => {
    const report = await runner({ maxRows: DAYS * KEYS }).summarize(BY_KEY);
    expect(report.rows).toHaveLength(KEYS);
    expect(report.totals.requests).toBe(DAYS * KEYS);
  });

  it('refuses a report over the row bound with a 413 saying what to narrow', async () => {
    const refused = await refusal(runner({ maxRows: DAYS * KEYS - 1 }).summarize(BY_KEY));
    expect(refused).toMatchObject({ status: 413, code: 'report_too_large' });
    expect(refused.message).toMatch(/narrow the date range/);
  });

  it('passes the caller’s own mistakes through as they are', async () => {
    const refused = await refusal(runner().summarize({ ...BY_KEY, to: BY_KEY.from - 1 }));
    expect(refused).toMatchObject({ status: 400, code: 'invalid_range' });
  });

  // An in-memory database's reports run on the event loop: nothing can stop them midway, the row bound is their bound.
  if (name !== 'in-memory SQLite') {
    it('refuses a report over the time budget with a 413', async () => {
      // One millisecond: the first statement runs longer (PostgreSQL cancels it; the worker's answer comes too late).
      const refused = await refusal(runner({ timeoutMs: 1 }).summarize(BY_KEY));
      expect(refused).toMatchObject({ status: 413, code: 'report_too_large' });
      expect(refused.message).toMatch(/took longer than 1 ms/);
    });
  }
});
