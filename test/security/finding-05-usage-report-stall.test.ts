/**
 * Finding 5 of issue 23: a year-long usage report on SQLite ran synchronously on the event loop,
 * so every tenant's requests (and `/healthz`) waited for it. Reports now run on a worker thread
 * with its own read-only connection, and a report's cost is bounded: too many rollup rows, or
 * too long, is a 413 in the admin error shape, never a stall.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../../src/store/open-store.js';
import { DAY_MS, DIMENSION_ROLLUPS, ROLLUP_ADDED_COLUMNS, rollupUpsertSql } from '../../src/store/usage-rollup.js';
import { AdminClient } from '../admin/admin-client.js';
import { type RunningGateway, startGateway } from '../helpers/start-gateway.js';

const MASTER = 'gg-master-finding-05-0123456789';
const DAY0 = 19_000;
const DAYS = 366;
const KEYS = 800;
const YEAR = `from=${DAY0 * DAY_MS}&to=${(DAY0 + DAYS - 1) * DAY_MS}`;

const dir = mkdtempSync(join(tmpdir(), 'gengate-finding-05-'));
const databaseUrl = `sqlite:${join(dir, 'gengate.db')}`;

/** 366 days × 800 keys of per-key rollup rows (about 290,000), written straight into the table a by-key report reads. */
async function fillRollups(): Promise<void> {
  const store = await openStore(databaseUrl);
  const sqlite = store.sqlite;
  if (!sqlite) throw new Error('expected a SQLite store');
  const insert = sqlite.prepare(rollupUpsertSql(DIMENSION_ROLLUPS[0]));
  const measures = ROLLUP_ADDED_COLUMNS.map((_, i) => i + 1);
  sqlite.transaction(() => {
    for (let day = DAY0; day < DAY0 + DAYS; day++) for (let key = 0; key < KEYS; key++) insert.run(day, `acct${key % 20}`, `key${key}`, ...measures);
  })();
  await store.close();
}

async function timed<T>(work: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const started = performance.now();
  const value = await work();
  return { value, ms: performance.now() - started };
}

describe('finding 5: usage reports do not stall other tenants (SQLite)', () => {
  const running: RunningGateway[] = [];

  beforeAll(fillRollups, 60_000);
  afterAll(async () => {
    for (const gateway of running) await gateway.close();
    rmSync(dir, { recursive: true, force: true });
  });

  async function start(limits: Record<string, number> = {}): Promise<{ gateway: RunningGateway; admin: AdminClient }> {
    const gateway = await startGateway({ masterKey: MASTER, databaseUrl, limits });
    running.push(gateway);
    return { gateway, admin: new AdminClient(gateway.url, MASTER) };
  }

  it('finding 5: /healthz answers within 150 ms while a year-long report by key is prepared', async () => {
    const { gateway, admin } = await start();
    // Warm up (the worker thread starts on the first report).
    expect((await admin.call('GET', `/usage?groupBy=key&from=${DAY0 * DAY_MS}&to=${DAY0 * DAY_MS}`)).status).toBe(200);

    let reportDone = false;
    const report = timed(() => admin.call('GET', `/usage?groupBy=key&${YEAR}`)).finally(() => {
      reportDone = true;
    });
    const healthz: number[] = [];
    while (!reportDone) {
      const { value, ms } = await timed(() => fetch(`${gateway.url}/healthz`));
      expect(value.status).toBe(200);
      healthz.push(ms);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const { value: answer, ms: reportMs } = await report;
    expect(answer.status).toBe(200);
    expect(answer.body.rows).toHaveLength(KEYS);
    expect(answer.body.totals.requests).toBe(DAYS * KEYS);
    // The report must cost clearly measurable time, or the check below proves nothing.
    expect(reportMs).toBeGreaterThanOrEqual(300);
    expect(Math.max(...healthz)).toBeLessThan(150);
    expect(healthz.length).toBeGreaterThanOrEqual(3);
  }, 30_000);

  it('finding 5: a report that would read more rollup rows than allowed is refused with a 413 naming what to narrow', async () => {
    const { admin } = await start({ usageReportMaxRows: 100_000 });
    const refused = await admin.call('GET', `/usage?groupBy=key&${YEAR}`);
    expect(refused.status).toBe(413);
    expect(refused.body.error.code).toBe('report_too_large');
    expect(refused.body.error.message).toMatch(/narrow/i);
    expect(typeof refused.body.error.requestId).toBe('string');
    const csv = await admin.call('GET', `/usage.csv?groupBy=key&${YEAR}`);
    expect(csv.status).toBe(413);
    // A month is within the bound.
    const month = await admin.call('GET', `/usage?groupBy=key&from=${DAY0 * DAY_MS}&to=${(DAY0 + 29) * DAY_MS}`);
    expect(month.status).toBe(200);
    expect(month.body.totals.requests).toBe(30 * KEYS);
  }, 30_000);

  it('finding 5: a report that runs past its time budget is refused with a 413, and the next report still works', async () => {
    const { admin } = await start({ usageReportTimeoutMs: 50 });
    const refused = await admin.call('GET', `/usage?groupBy=key&${YEAR}`);
    expect(refused.status).toBe(413);
    expect(refused.body.error.code).toBe('report_too_large');
    expect(refused.body.error.message).toMatch(/narrow/i);
    const small = await admin.call('GET', `/usage?groupBy=day&from=${DAY0 * DAY_MS}&to=${DAY0 * DAY_MS}`);
    expect(small.status).toBe(200);
  }, 30_000);
});
