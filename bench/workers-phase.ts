/**
 * The `--workers` cell: the plain pass-through chat scenario against gengate started with one
 * worker and with N (`gengate start --workers N`), interleaved slice by slice, at the run's
 * highest concurrency. The load generator runs on the same cores, so the ratio is what N
 * workers gain on this machine, not what they would gain with the cores to themselves.
 */
import type { Measurement, WorkersResult } from './bench-types.js';
import { measureInterleaved } from './measure-cell.js';
import { scenarioById } from './scenarios.js';
import { GENGATE_KEY, removeWorkDir, startGengate, UPSTREAM_KEY, type RunningGengate } from './start-servers.js';

export interface WorkersPhaseOptions {
  mockPort: number;
  workers: number;
  connections: number;
  durationSec: number;
  warmupSec: number;
  rounds: number;
  gengateMode: 'dist' | 'tsx';
  gengateRoot: string;
}

const SCENARIO = 'chat';

export async function runWorkersPhase(options: WorkersPhaseOptions): Promise<WorkersResult> {
  const servers: RunningGengate[] = [];
  try {
    const one = await startGengate({ mockPort: options.mockPort, mode: options.gengateMode, root: options.gengateRoot });
    servers.push(one);
    const many = await startGengate({
      mockPort: options.mockPort,
      mode: options.gengateMode,
      root: options.gengateRoot,
      args: ['--workers', String(options.workers)],
    });
    servers.push(many);
    const scenario = scenarioById(SCENARIO);
    const request = scenario.request('gengate', { mockPort: options.mockPort, gengateKey: GENGATE_KEY, upstreamKey: UPSTREAM_KEY });
    const cell = (server: RunningGengate) => ({
      scenario: SCENARIO,
      target: 'gengate' as const,
      baseUrl: server.baseUrl,
      serverPid: server.pid,
      mockPid: undefined,
      request,
      connections: options.connections,
    });
    const [single, multiple] = (await measureInterleaved([cell(one), cell(many)], options)) as [Measurement, Measurement];
    return {
      scenario: SCENARIO,
      connections: options.connections,
      workers: options.workers,
      one: summary(single),
      many: summary(multiple),
      ratio: single.rps > 0 ? multiple.rps / single.rps : 0,
    };
  } finally {
    for (const server of servers) {
      await server.stop();
      removeWorkDir(server.workDir);
    }
  }
}

/** The server CPU of a cluster is its workers', not the primary's pid that was metered: left out. */
function summary(m: Measurement): WorkersResult['one'] {
  return { rps: m.rps, p50Ms: m.latency.p50, p99Ms: m.latency.p99, errors: m.errors, loadCpuCores: m.loadCpuCores };
}
