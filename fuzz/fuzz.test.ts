/**
 * Short runs of the fuzz suite (the full one is `npm run fuzz`): a few hundred hostile requests
 * against a real gateway process, with a fixed seed so a failure can be replayed with
 * `npm run fuzz -- --seed 20260101 --only <case>` (plus the flags the replay line prints). Each
 * run ends with the after-run checks: a call's usage row still reaches the database, and the
 * gateway starts again on the same data after a SIGTERM and after a kill -9.
 */
import { describe, expect, it } from 'vitest';
import { createTempDatabase } from '../test/helpers/postgres.js';
import { renderFuzzReport } from './render-fuzz-report.js';
import { type FuzzOptions, runFuzz } from './run-fuzz.js';

const SHORT: FuzzOptions = { seed: 20260101, requests: 500, seconds: 30, concurrency: 4, rawRounds: 1, stallHoldMs: 2_000 };

describe('fuzz suite (short run)', () => {
  it('answers 500 hostile requests on every route without a 5xx, crash, stall, hang or mis-shaped error, on SQLite', async () => {
    const report = await runFuzz(SHORT);
    const summary = renderFuzzReport(report);
    expect(report.crashed, summary).toBe(false);
    expect(report.groups, summary).toEqual([]);
    expect(report.sent + report.refusedByClient, summary).toBe(500);
  }, 180_000);

  // Issue 23: client strings with control and path characters, on the database that refuses a NUL in a row.
  it('answers 300 control-and-path requests on PostgreSQL, and still records usage and restarts afterwards', async () => {
    const database = await createTempDatabase();
    try {
      // Another seed than SQLite's: its cases include NUL model ids under the wildcard channel on chat routes (#289).
      const report = await runFuzz({ ...SHORT, seed: 20261123, requests: 300, databaseUrl: database.url, attacks: ['control and path'] });
      const summary = renderFuzzReport(report);
      expect(report.crashed, summary).toBe(false);
      expect(report.groups, summary).toEqual([]);
      expect(report.sent + report.refusedByClient, summary).toBe(300);
    } finally {
      await database.drop();
    }
  }, 180_000);
});
