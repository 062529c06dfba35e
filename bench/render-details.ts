/**
 * The detail tables of a run's report, below its summary: CPU against a baseline checkout, every
 * cell, the streaming capacity, the CPU profile and the run's notes. Each appends to `lines`.
 */
import { compareWithBaseline, formatChange } from './baseline-comparison.js';
import type { BenchResults, Measurement } from './bench-types.js';
import { findMeasurement } from './check-targets.js';
import { cellText, mb, ms, signedMs } from './markdown-figures.js';
import { SCENARIOS } from './scenarios.js';

function measurementRow(m: Measurement, direct: Measurement | undefined): string {
  if (m.skipped) return `| ${m.connections} | ${m.target} | – | – | – | – | – | – | – | – | – | – | skipped: ${m.skipped} |`;
  const added = m.target !== 'direct' && direct;
  const statuses = Object.entries(m.statuses)
    .map(([status, count]) => `${status}×${count}`)
    .join(' ');
  return [
    '',
    m.connections,
    m.target,
    m.rps.toFixed(0),
    ms(m.latency.p50),
    ms(m.latency.p99),
    added ? signedMs(m.latency.p50 - direct.latency.p50) : '',
    added ? signedMs(m.latency.p99 - direct.latency.p99) : '',
    m.errors,
    m.serverCpuCores.toFixed(2),
    m.serverCpuMsPerRequest.toFixed(3),
    mb(m.serverPeakRssBytes),
    m.target === 'direct' ? '' : m.mockCpuCores.toFixed(2),
    [statuses, m.errors > 0 && m.probe ? `probe: ${cellText(m.probe)}` : ''].filter(Boolean).join('; '),
    '',
  ]
    .join(' | ')
    .trim();
}

/** CPU per request against the `--baseline-root` checkout; nothing without one. */
export function renderBaseline(results: BenchResults, lines: string[]): void {
  const baseline = compareWithBaseline(results);
  if (baseline.length === 0) return;
  lines.push('### CPU per request against the baseline', '');
  lines.push('gengate and the baseline checkout served every cell slice for slice, in the same run.', '');
  lines.push('| scenario | c | baseline ms/req | gengate ms/req | change |', '|---|---|---|---|---|');
  for (const row of baseline) {
    lines.push(
      `| ${row.scenario} | ${row.connections} | ${row.baselineMsPerRequest.toFixed(3)} | ${row.gengateMsPerRequest.toFixed(3)} | ${formatChange(row.change)} |`,
    );
  }
  lines.push('');
}

/** One table per scenario, one row per concurrency and target. */
export function renderCells(results: BenchResults, lines: string[]): void {
  lines.push('### Every cell', '');
  lines.push(
    'req/s counts answers with the expected status; latency is to the last byte; "+p50/+p99" is the difference to direct in the same scenario and concurrency; server CPU is in cores (1.00 = one core busy) of the measured process (the mock itself for direct); "mock CPU" is the mock behind a gateway.',
    '',
  );
  for (const scenario of SCENARIOS) {
    const rows = results.measurements.filter((m) => m.scenario === scenario.id);
    if (rows.length === 0) continue;
    lines.push(`#### ${scenario.title}`, '');
    lines.push('| c | target | req/s | p50 ms | p99 ms | +p50 ms | +p99 ms | errors | server CPU | CPU ms/req | peak RSS MB | mock CPU | statuses |');
    lines.push('|---|---|---|---|---|---|---|---|---|---|---|---|---|');
    for (const m of rows) lines.push(measurementRow(m, findMeasurement(results, m.scenario, 'direct', m.connections)));
    lines.push('');
  }
}

/** The streaming-capacity check, when the run made it. */
export function renderCapacity(results: BenchResults, lines: string[]): void {
  if (results.capacity.length === 0) return;
  const cap = results.settings.capacity;
  lines.push('### Streaming capacity', '');
  lines.push(
    `${cap.streams} concurrent OpenAI chat streams (pass-through, asking \`stream_options.include_usage\`), each ${cap.size} tokens at ${cap.tps} tokens/s after ${cap.ttftMs} ms, opened together and held to the end; every body is compared with the mock's bytes. "plain request identical" tells whether one more stream, requested without \`stream_options\`, also arrived byte for byte as the upstream would send it to that client.`,
    '',
  );
  lines.push(
    '| target | streams | open at once | slowest headers s | byte-identical | content intact | failed | wall s | idle RSS MB | peak RSS MB | server CPU s | plain request identical | first failure |',
  );
  lines.push('|---|---|---|---|---|---|---|---|---|---|---|---|---|');
  for (const r of results.capacity) {
    if (r.skipped) {
      lines.push(`| ${r.target} | ${r.streams} | – | – | – | – | – | – | – | – | – | – | skipped: ${r.skipped} |`);
      continue;
    }
    lines.push(
      `| ${r.target} | ${r.streams} | ${r.maxConcurrent} | ${(r.slowestHeadersMs / 1000).toFixed(1)} | ${r.byteIdentical} | ${r.contentIntact} | ${r.failed} | ${r.wallSec.toFixed(1)} | ${mb(r.idleRssBytes)} | ${mb(r.peakRssBytes)} | ${r.serverCpuSec.toFixed(2)} | ${r.plainRequestIdentical === undefined ? '–' : r.plainRequestIdentical ? 'yes' : 'no'} | ${cellText(r.firstFailure ?? '').slice(0, 160)} |`,
    );
  }
  lines.push('');
  for (const r of results.capacity) {
    if (r.plainRequestDifference) lines.push(`Without \`stream_options\`, ${r.target}: ${cellText(r.plainRequestDifference)}`, '');
  }
}

/** gengate's CPU profile, when the run made one. */
export function renderProfile(results: BenchResults, lines: string[]): void {
  const profile = results.profile;
  if (!profile) return;
  lines.push(`### CPU profile of gengate (${profile.scenario}, \`node --cpu-prof\`)`, '');
  lines.push(`${profile.totalMs.toFixed(0)} ms of busy CPU sampled.`, '');
  lines.push('| self % | self ms | function | where |', '|---|---|---|---|');
  for (const entry of profile.top)
    lines.push(`| ${entry.selfPercent.toFixed(1)} | ${entry.selfMs.toFixed(0)} | \`${entry.functionName}\` | ${entry.location} |`);
  lines.push('', "gengate's own functions by time in them and below (synchronous stacks; work resumed after an `await` counts at its own frame):", '');
  lines.push('| total % | total ms | function | where |', '|---|---|---|---|');
  for (const entry of profile.gengateInclusive)
    lines.push(`| ${entry.selfPercent.toFixed(1)} | ${entry.selfMs.toFixed(0)} | \`${entry.functionName}\` | ${entry.location} |`);
  lines.push('', 'Self time by area:', '', '| area | self % |', '|---|---|');
  for (const area of profile.byArea.slice(0, 15)) lines.push(`| ${area.area} | ${area.selfPercent.toFixed(1)} |`);
  lines.push('');
}

/** What the run noticed (errors, skipped targets, where the raw profile is). */
export function renderNotes(results: BenchResults, lines: string[]): void {
  if (results.notes.length === 0) return;
  lines.push('### Notes from the run', '');
  for (const note of results.notes) lines.push(`- ${note}`);
  lines.push('');
}
