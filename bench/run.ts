/**
 * The benchmark: `npm run bench` (full, ~8–9 min) or `npm run bench -- --quick`. Measures every
 * scenario against the mock directly, gengate and Portkey at each concurrency, then the
 * streaming capacity, profiles gengate, and writes the figures into bench/results/ and, for a
 * full run, into docs/benchmarks.md.
 */
import { applyScenarioLimits } from './scenario-limits.js';
import { mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { compareWithBaseline, formatChange } from './baseline-comparison.js';
import type { BenchResults, Measurement, TargetName } from './bench-types.js';
import { briefError } from './brief-error.js';
import { runCapacityPhase } from './capacity-phase.js';
import { evaluateTargets } from './check-targets.js';
import { installSignalCleanup, REPO_ROOT, type ChildServer } from './child-processes.js';
import { collectMachineInfo } from './machine-info.js';
import { measureInterleaved, skippedCell, type CellTarget } from './measure-cell.js';
import { runProfilePhase } from './profile-phase.js';
import { mergeIntoDocument, renderResultsSection } from './render-report.js';
import { parseRunArgs, USAGE, type RunArgs } from './run-args.js';
import { scenarioById } from './scenarios.js';
import {
  ensureGengateBuilt,
  ensurePortkeyInstalled,
  GENGATE_KEY,
  removeWorkDir,
  startBareProxy,
  startGengate,
  startMock,
  startPortkey,
  UPSTREAM_KEY,
  type RunningGengate,
} from './start-servers.js';

const RESULTS_DIR = join(REPO_ROOT, 'bench/results');
const log = (line: string): void => {
  process.stderr.write(`[bench ${new Date().toISOString().slice(11, 19)}] ${line}\n`);
};

function describeCell(m: Measurement): string {
  if (m.skipped) return `${m.scenario} c=${m.connections} ${m.target}: skipped (${m.skipped})`;
  return `${m.scenario} c=${m.connections} ${m.target}: ${m.rps.toFixed(0)} req/s, p50 ${m.latency.p50.toFixed(2)} ms, p99 ${m.latency.p99.toFixed(2)} ms, errors ${m.errors}, server CPU ${m.serverCpuCores.toFixed(2)}${m.probe ? `, probe: ${m.probe}` : ''}`;
}

async function startGateways(
  args: RunArgs,
  mockPort: number,
  notes: string[],
): Promise<{ gengate?: RunningGengate; baseline?: RunningGengate; portkey?: ChildServer; skipReason: Partial<Record<TargetName, string>> }> {
  const skipReason: Partial<Record<TargetName, string>> = {};
  let portkey: ChildServer | undefined;
  const gengate = args.targets.includes('gengate') ? await startOneGengate('gengate', args.gengateRoot, args, mockPort, notes, skipReason) : undefined;
  const baseline =
    args.baselineRoot !== undefined && args.targets.includes('gengate-base')
      ? await startOneGengate('gengate-base', args.baselineRoot, args, mockPort, notes, skipReason)
      : undefined;
  if (args.targets.includes('portkey')) {
    try {
      ensurePortkeyInstalled(log);
      portkey = await startPortkey();
      log(`portkey on ${portkey.baseUrl}, pid ${portkey.pid}`);
    } catch (error) {
      const reason = briefError((error as Error).message);
      skipReason.portkey = `did not start: ${reason}`;
      notes.push(`Portkey could not be measured: ${reason}`);
      log(`portkey failed: ${(error as Error).message}`);
    }
  }
  return { gengate, baseline, portkey, skipReason };
}

async function startOneGengate(
  target: 'gengate' | 'gengate-base',
  root: string,
  args: RunArgs,
  mockPort: number,
  notes: string[],
  skipReason: Partial<Record<TargetName, string>>,
): Promise<RunningGengate | undefined> {
  try {
    if (args.gengateMode === 'dist') {
      try {
        ensureGengateBuilt(root, log);
      } catch (error) {
        // A baseline run another way than gengate would not compare: it is not measured.
        if (target === 'gengate-base') throw error;
        // Others may be mid-change: measure the sources as they run rather than nothing.
        notes.push(`\`npm run build\` failed, so gengate ran from src/ through tsx: ${briefError((error as Error).message)}`);
        args.gengateMode = 'tsx';
      }
    }
    const server = await startGengate({ mockPort, mode: args.gengateMode, root });
    log(`${target} (${args.gengateMode}, ${root}) on ${server.baseUrl}, pid ${server.pid}`);
    return server;
  } catch (error) {
    const reason = briefError((error as Error).message);
    skipReason[target] = `did not start: ${reason}`;
    notes.push(`${target} could not be measured: ${reason}`);
    log(`${target} failed: ${(error as Error).message}`);
    return undefined;
  }
}

function noteErrors(measurements: Measurement[], notes: string[]): void {
  for (const m of measurements) {
    if (m.skipped || m.errors === 0) continue;
    const statuses = Object.entries(m.statuses)
      .map(([status, count]) => `${count}× HTTP ${status}`)
      .join(', ');
    notes.push(
      `${m.scenario}, ${m.target}, c=${m.connections}: ${m.errors} errors (${statuses || 'socket errors/timeouts'})${m.probe ? `; a single probe got: ${m.probe}` : ''}`,
    );
  }
}

export async function main(argv: string[]): Promise<number> {
  const args = parseRunArgs(argv);
  if (args.help) {
    process.stdout.write(USAGE);
    return 0;
  }
  installSignalCleanup();
  const notes: string[] = [];
  const results: BenchResults = {
    startedAt: new Date().toISOString(),
    finishedAt: '',
    machine: collectMachineInfo(args.gengateRoot, args.baselineRoot),
    settings: {
      command: `npm run bench${argv.length > 0 ? ` -- ${argv.join(' ')}` : ''}`,
      durationSec: args.durationSec,
      warmupSec: args.warmupSec,
      rounds: args.rounds,
      connections: args.connections,
      mock: args.mock,
      capacity: args.capacity ?? { streams: 0, tps: 0, size: 0, ttftMs: 0 },
    },
    measurements: [],
    capacity: [],
    notes,
  };
  if (args.quick) notes.push('quick run: cells are short and the capacity check uses fewer streams; the figures check the harness, not the targets.');

  const mock = await startMock(args.mock);
  log(`mock upstream on ${mock.baseUrl}, pid ${mock.pid}`);
  const { gengate, baseline, portkey, skipReason } = await startGateways(args, mock.port, notes);
  const bareProxy = args.targets.includes('bare-proxy') ? await startBareProxy(mock.port) : undefined;
  const servers: Partial<Record<TargetName, ChildServer>> = { direct: mock, 'bare-proxy': bareProxy, gengate, portkey, 'gengate-base': baseline };
  const endpoints = { mockPort: mock.port, gengateKey: GENGATE_KEY, upstreamKey: UPSTREAM_KEY };
  try {
    for (const id of args.scenarios) {
      const scenario = scenarioById(id);
      const removals: Array<() => Promise<void>> = [];
      // A scenario with settings of its own gets a gengate process of its own, stopped after it.
      const own =
        scenario.gengateEnv && gengate
          ? await startGengate({ mockPort: mock.port, mode: args.gengateMode, root: args.gengateRoot, env: scenario.gengateEnv })
          : undefined;
      if (own) {
        log(`gengate for ${id} (${Object.keys(scenario.gengateEnv ?? {}).join(', ')}) on ${own.baseUrl}, pid ${own.pid}`);
        servers.gengate = own;
        removals.push(async () => {
          servers.gengate = gengate;
          await own.stop();
          removeWorkDir(own.workDir);
        });
      }
      for (const target of ['gengate', 'gengate-base'] as const) {
        const server = servers[target];
        if (!scenario.limits || !server) continue;
        const set = await applyScenarioLimits(server.baseUrl, scenario.limits);
        if (set.applied) removals.push(set.remove);
        else notes.push(`${id}: ${target} has no limits (its admin API has no /limits): measured without them.`);
      }
      for (const connections of args.connections) {
        const cells: CellTarget[] = [];
        const rows = new Map<TargetName, Measurement>();
        for (const target of args.targets) {
          if (target === 'bare-proxy' && !scenario.bareProxy) continue;
          const notServed = scenario.notServedBy?.[target];
          if (notServed) {
            rows.set(target, skippedCell(id, target, connections, notServed));
            continue;
          }
          const server = servers[target];
          if (!server) {
            rows.set(target, skippedCell(id, target, connections, skipReason[target] ?? 'not started'));
            continue;
          }
          cells.push({
            scenario: id,
            target,
            baseUrl: server.baseUrl,
            serverPid: server.pid,
            mockPid: target === 'direct' ? undefined : mock.pid,
            // The baseline is asked exactly what gengate is.
            request: scenario.request(target === 'gengate-base' ? 'gengate' : target, endpoints),
            connections,
          });
        }
        for (const measurement of await measureInterleaved(cells, args)) rows.set(measurement.target, measurement);
        for (const target of args.targets) {
          const measurement = rows.get(target);
          if (!measurement) continue;
          results.measurements.push(measurement);
          log(describeCell(measurement));
        }
      }
      for (const remove of removals) await remove();
    }
    noteErrors(results.measurements, notes);
    for (const server of [gengate, baseline]) {
      if (!server) continue;
      await server.stop();
      removeWorkDir(server.workDir);
    }
    if (portkey) await portkey.stop();
    if (bareProxy) await bareProxy.stop();

    if (args.profile && gengate) {
      const connections = Math.max(...args.connections);
      log(`profiling gengate under ${args.profileScenario} c=${connections}…`);
      try {
        const { summary, file } = await runProfilePhase({
          mockPort: mock.port,
          scenario: args.profileScenario,
          connections,
          durationSec: args.durationSec,
          gengateMode: args.gengateMode,
          gengateRoot: args.gengateRoot,
          keepDir: RESULTS_DIR,
        });
        results.profile = summary;
        notes.push(`The raw CPU profile is kept in ${file.slice(REPO_ROOT.length + 1)} (open it in Chrome DevTools or speedscope).`);
      } catch (error) {
        notes.push(`profiling failed: ${briefError((error as Error).message)}`);
      }
    }
  } finally {
    await gengate?.stop();
    await baseline?.stop();
    await portkey?.stop();
    await bareProxy?.stop();
    await mock.stop();
  }

  if (args.capacity) {
    const targets = args.targets.filter((target) => target !== 'bare-proxy' && target !== 'gengate-base');
    results.capacity = await runCapacityPhase({ ...args.capacity, targets, gengateMode: args.gengateMode, gengateRoot: args.gengateRoot, log });
  }
  results.finishedAt = new Date().toISOString();

  mkdirSync(RESULTS_DIR, { recursive: true });
  const jsonPath = join(RESULTS_DIR, `run-${results.startedAt.replace(/[:.]/g, '-')}.json`);
  writeFileSync(jsonPath, `${JSON.stringify(results, null, 2)}\n`);
  log(`figures written to ${jsonPath}`);
  if (args.reportPath) {
    const reportPath = resolve(REPO_ROOT, args.reportPath);
    const existing = existsSync(reportPath) ? readFileSync(reportPath, 'utf8') : undefined;
    writeFileSync(reportPath, mergeIntoDocument(existing, renderResultsSection(results)));
    log(`report written to ${reportPath}`);
  }
  for (const row of compareWithBaseline(results)) {
    const line = `CPU per request against the baseline, ${row.scenario} c=${row.connections}: ${row.gengateMsPerRequest.toFixed(3)} ms against ${row.baselineMsPerRequest.toFixed(3)} (${formatChange(row.change)})`;
    process.stdout.write(`${line}\n`);
  }
  for (const check of evaluateTargets(results)) {
    const verdict = check.met === undefined ? 'NOT MEASURED' : check.met ? 'met' : 'MISSED';
    process.stdout.write(`${verdict.padEnd(12)} ${check.name}: ${check.measured} (required ${check.required})\n`);
  }
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    log(`failed: ${(error as Error).stack ?? String(error)}`);
    process.exit(1);
  },
);
