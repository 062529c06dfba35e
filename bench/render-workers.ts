/** The report's lines for the `--workers` cell. */
import type { BenchResults } from './bench-types.js';

export function renderWorkers(results: BenchResults, lines: string[]): void {
  const cell = results.workers;
  if (!cell) return;
  const { one, many, workers, connections, ratio } = cell;
  lines.push(`### ${workers} workers (\`gengate start --workers ${workers}\`)`, '');
  lines.push(
    `Pass-through chat at concurrency ${connections}, one worker against ${workers}, interleaved. The load generator runs on the same ${results.machine.cpus} cores as the workers (and the mock), so this is what ${workers} workers gain on this machine, not on cores of their own.`,
    '',
  );
  lines.push('| workers | req/s | p50 ms | p99 ms | errors | load generator CPU |', '|---|---|---|---|---|---|');
  for (const [count, figures] of [
    [1, one],
    [workers, many],
  ] as const) {
    lines.push(
      `| ${count} | ${figures.rps.toFixed(0)} | ${figures.p50Ms.toFixed(2)} | ${figures.p99Ms.toFixed(2)} | ${figures.errors} | ${figures.loadCpuCores.toFixed(2)} |`,
    );
  }
  lines.push('', `Throughput with ${workers} workers over one: **×${ratio.toFixed(2)}**.`, '');
}
