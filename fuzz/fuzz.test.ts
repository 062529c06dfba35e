/**
 * A short run of the fuzz suite (the full one is `npm run fuzz`): a few hundred hostile requests
 * against a real gateway process, with a fixed seed so a failure can be replayed with
 * `npm run fuzz -- --seed 20260101 --only <case>`.
 */
import { describe, expect, it } from 'vitest';
import { renderFuzzReport } from './render-fuzz-report.js';
import { runFuzz } from './run-fuzz.js';

describe('fuzz suite (short run)', () => {
  it('answers 500 hostile requests on every route without a 5xx, crash, stall, hang or mis-shaped error', async () => {
    const report = await runFuzz({ seed: 20260101, requests: 500, seconds: 30, concurrency: 4, rawRounds: 1, stallHoldMs: 2_000 });
    const summary = renderFuzzReport(report);
    expect(report.crashed, summary).toBe(false);
    expect(report.groups, summary).toEqual([]);
    expect(report.sent + report.refusedByClient, summary).toBe(500);
  }, 180_000);
});
