/**
 * CPU per request of gengate against the baseline checkout measured in the same run
 * (`--baseline-root`): both served the same cells, slice for slice, so a busy neighbour or a
 * slow stretch of the host weighs on both alike.
 */
import type { BenchResults } from './bench-types.js';
import { findMeasurement } from './check-targets.js';

export interface BaselineRow {
  scenario: string;
  connections: number;
  baselineMsPerRequest: number;
  gengateMsPerRequest: number;
  /** gengate / baseline − 1 (0.05 = 5 % more CPU per request than the baseline). */
  change: number;
}

/** One row per cell where both were measured; empty when the run had no baseline. */
export function compareWithBaseline(results: BenchResults): BaselineRow[] {
  const rows: BaselineRow[] = [];
  for (const base of results.measurements) {
    if (base.target !== 'gengate-base' || base.skipped || base.serverCpuMsPerRequest <= 0) continue;
    const gengate = findMeasurement(results, base.scenario, 'gengate', base.connections);
    if (!gengate) continue;
    rows.push({
      scenario: base.scenario,
      connections: base.connections,
      baselineMsPerRequest: base.serverCpuMsPerRequest,
      gengateMsPerRequest: gengate.serverCpuMsPerRequest,
      change: gengate.serverCpuMsPerRequest / base.serverCpuMsPerRequest - 1,
    });
  }
  return rows;
}

export function formatChange(change: number): string {
  const percent = (change * 100).toFixed(1);
  return `${change >= 0 ? '+' : ''}${percent} %`;
}
