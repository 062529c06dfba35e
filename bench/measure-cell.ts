/**
 * One cell of the table: one scenario, one target, one concurrency. A probe request first
 * (so a failing route is explained, not just counted), a warm-up, then measured slices with
 * the server's and the mock's CPU and memory metered around each. The runner interleaves
 * the slices of all targets of a cell, so that a neighbour's burst on a shared machine hits
 * every target alike instead of whichever happened to be running.
 */
import type { Measurement, TargetName } from './bench-types.js';
import { summarize } from './percentiles.js';
import { meterProcess } from './proc-stats.js';
import { runLoad } from './run-load.js';
import type { RequestSpec } from './scenarios.js';

export interface CellTarget {
  scenario: string;
  target: TargetName;
  baseUrl: string;
  serverPid: number;
  /** The mock's pid when the server is a gateway in front of it. */
  mockPid?: number;
  request: RequestSpec;
  connections: number;
}

export interface SliceResult {
  ok: number;
  errors: number;
  statuses: Record<string, number>;
  elapsedSec: number;
  samples: Float64Array;
  serverCpuSec: number;
  serverPeakRssBytes: number;
  mockCpuSec: number;
  loadCpuSec: number;
}

/** Sends the request once; returns undefined when it got the expected status, else what it got. */
export async function probe(baseUrl: string, request: RequestSpec): Promise<string | undefined> {
  try {
    const response = await fetch(`${baseUrl}${request.path}`, {
      method: request.method,
      headers: request.headers,
      body: request.body,
      signal: AbortSignal.timeout(10_000),
    });
    const text = await response.text();
    if (response.status === request.expectStatus) return undefined;
    return `HTTP ${response.status} ${text.replace(/\s+/g, ' ').slice(0, 160)}`;
  } catch (error) {
    return `request failed: ${(error as Error).message}`;
  }
}

/** Probe, then unmeasured load so the JIT and connection pools are warm. */
export async function prepareCell(cell: CellTarget, warmupSec: number): Promise<string | undefined> {
  const problem = await probe(cell.baseUrl, cell.request);
  if (warmupSec > 0) await runLoad({ baseUrl: cell.baseUrl, request: cell.request, connections: cell.connections, durationSec: warmupSec });
  return problem;
}

export async function measureSlice(cell: CellTarget, durationSec: number): Promise<SliceResult> {
  const server = meterProcess(cell.serverPid);
  const mock = cell.mockPid !== undefined ? meterProcess(cell.mockPid) : undefined;
  const result = await runLoad({ baseUrl: cell.baseUrl, request: cell.request, connections: cell.connections, durationSec });
  const serverUsage = server.stop();
  const mockUsage = mock?.stop();
  return {
    ok: result.ok,
    errors: result.errors,
    statuses: result.statuses,
    elapsedSec: result.elapsedSec,
    samples: result.samples,
    serverCpuSec: serverUsage.cpuSeconds,
    serverPeakRssBytes: serverUsage.peakRssBytes,
    mockCpuSec: mockUsage?.cpuSeconds ?? 0,
    loadCpuSec: result.loadCpuSec,
  };
}

/** Adds slices up into one measurement: rates over the summed time, percentiles over all samples. */
export function combineSlices(cell: Pick<CellTarget, 'scenario' | 'target' | 'connections'>, slices: SliceResult[], probeProblem?: string): Measurement {
  let ok = 0;
  let errors = 0;
  let seconds = 0;
  let serverCpu = 0;
  let mockCpu = 0;
  let loadCpu = 0;
  let peak = 0;
  let sampleCount = 0;
  const statuses: Record<string, number> = {};
  for (const slice of slices) {
    ok += slice.ok;
    errors += slice.errors;
    seconds += slice.elapsedSec;
    serverCpu += slice.serverCpuSec;
    mockCpu += slice.mockCpuSec;
    loadCpu += slice.loadCpuSec;
    peak = Math.max(peak, slice.serverPeakRssBytes);
    sampleCount += slice.samples.length;
    for (const [status, count] of Object.entries(slice.statuses)) statuses[status] = (statuses[status] ?? 0) + count;
  }
  const samples = new Float64Array(sampleCount);
  let offset = 0;
  for (const slice of slices) {
    samples.set(slice.samples, offset);
    offset += slice.samples.length;
  }
  const perSecond = (value: number): number => (seconds > 0 ? value / seconds : 0);
  return {
    scenario: cell.scenario,
    target: cell.target,
    connections: cell.connections,
    durationSec: seconds,
    rps: perSecond(ok),
    latency: summarize(samples),
    errors,
    statuses,
    serverCpuCores: perSecond(serverCpu),
    serverCpuMsPerRequest: ok > 0 ? (serverCpu * 1000) / ok : 0,
    serverPeakRssBytes: peak,
    mockCpuCores: cell.target === 'direct' ? 0 : perSecond(mockCpu),
    loadCpuCores: perSecond(loadCpu),
    ...(probeProblem ? { probe: probeProblem } : {}),
  };
}

/**
 * Measures all targets of a cell in `rounds` interleaved slices; each round starts with the
 * next target so none is always first after a pause.
 */
export async function measureInterleaved(cells: CellTarget[], options: { durationSec: number; warmupSec: number; rounds: number }): Promise<Measurement[]> {
  const probes = new Map<CellTarget, string | undefined>();
  for (const cell of cells) probes.set(cell, await prepareCell(cell, options.warmupSec));
  const slices = new Map<CellTarget, SliceResult[]>(cells.map((cell) => [cell, []]));
  const rounds = Math.max(1, Math.floor(options.rounds));
  const sliceSec = options.durationSec / rounds;
  for (let round = 0; round < rounds; round++) {
    for (let i = 0; i < cells.length; i++) {
      const cell = cells[(i + round) % cells.length];
      slices.get(cell)!.push(await measureSlice(cell, sliceSec));
    }
  }
  return cells.map((cell) => combineSlices(cell, slices.get(cell)!, probes.get(cell)));
}

/** A row for a target that could not be measured, so the table still shows why. */
export function skippedCell(scenario: string, target: TargetName, connections: number, reason: string): Measurement {
  return {
    scenario,
    target,
    connections,
    durationSec: 0,
    rps: 0,
    latency: { count: 0, mean: Number.NaN, p50: Number.NaN, p90: Number.NaN, p99: Number.NaN, max: Number.NaN },
    errors: 0,
    statuses: {},
    serverCpuCores: 0,
    serverCpuMsPerRequest: 0,
    serverPeakRssBytes: 0,
    mockCpuCores: 0,
    loadCpuCores: 0,
    skipped: reason,
  };
}
