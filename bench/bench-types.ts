/** The figures a benchmark run produces; the report is rendered from these alone. */
import type { LatencySummary } from './percentiles.js';

/**
 * Who answers: the mock upstream itself (the physical limit), a bare Node.js proxy (the floor
 * any Node gateway stands on), gengate, Portkey's gateway, or another gengate checkout measured
 * alongside this one (`--baseline-root`, to compare versions under the same noise).
 */
export type TargetName = 'direct' | 'bare-proxy' | 'gengate' | 'portkey' | 'gengate-base';

export const TARGETS: readonly TargetName[] = ['direct', 'bare-proxy', 'gengate', 'portkey'];

export interface Measurement {
  scenario: string;
  target: TargetName;
  connections: number;
  durationSec: number;
  /** Responses with the expected status, per second. */
  rps: number;
  latency: LatencySummary;
  /** Answers with another status, socket errors and timeouts. */
  errors: number;
  /** Status code → count, to tell what the errors were. */
  statuses: Record<string, number>;
  /** CPU of the measured server (the mock for `direct`), in cores (1 = one core busy). */
  serverCpuCores: number;
  /** CPU milliseconds the measured server spent per answered request. */
  serverCpuMsPerRequest: number;
  serverPeakRssBytes: number;
  /** CPU of the mock behind a gateway (0 for `direct`, where the mock is the server). */
  mockCpuCores: number;
  /** CPU of the load generator (this process), to see whether it was the bottleneck. */
  loadCpuCores: number;
  /** Set when the target could not be measured (not started, unsupported); figures are then 0. */
  skipped?: string;
  /** What one probe request before the run answered, shortened; tells a reader why errors happened. */
  probe?: string;
}

export interface CapacityResult {
  target: TargetName;
  streams: number;
  /** Most streams that had their response headers and were still open at the same moment. */
  maxConcurrent: number;
  /** The longest any stream waited for its response headers: queueing shows here. */
  slowestHeadersMs: number;
  /** Streams whose bytes equal the mock's exactly. */
  byteIdentical: number;
  /** Streams whose text and terminator are complete even if framing differs. */
  contentIntact: number;
  failed: number;
  /** First failure, for the report. */
  firstFailure?: string;
  wallSec: number;
  idleRssBytes: number;
  peakRssBytes: number;
  serverCpuSec: number;
  /** Whether a stream requested without `stream_options` also arrives byte-identical. */
  plainRequestIdentical?: boolean;
  plainRequestDifference?: string;
  skipped?: string;
}

export interface MachineInfo {
  cpus: number;
  cpuModel: string;
  memory: string;
  os: string;
  node: string;
  gengateVersion: string;
  gengateCommit: string;
  /** The commit of the `--baseline-root` checkout measured alongside, when there was one. */
  baselineCommit?: string;
  portkeyVersion: string;
  honoNodeServerVersion: string;
  autocannonVersion: string;
}

export interface ProfileEntry {
  functionName: string;
  location: string;
  selfMs: number;
  selfPercent: number;
}

export interface ProfileSummary {
  scenario: string;
  totalMs: number;
  top: ProfileEntry[];
  /** gengate's own functions by time spent in them and below (synchronous stacks only; `selfMs` holds that total). */
  gengateInclusive: ProfileEntry[];
  /** Self time grouped by package or source folder (e.g. `node:internal`, `fastify`, `src/providers`). */
  byArea: Array<{ area: string; selfMs: number; selfPercent: number }>;
}

export interface RunSettings {
  command: string;
  durationSec: number;
  warmupSec: number;
  rounds: number;
  connections: number[];
  mock: { latencyMs: number; ttftMs: number; tps: number; size: number };
  capacity: { streams: number; tps: number; size: number; ttftMs: number };
}

export interface BenchResults {
  startedAt: string;
  finishedAt: string;
  machine: MachineInfo;
  settings: RunSettings;
  measurements: Measurement[];
  capacity: CapacityResult[];
  profile?: ProfileSummary;
  /** The `--workers N` cell: pass-through chat against one worker and against N. */
  workers?: WorkersResult;
  notes: string[];
}

export interface WorkersCell {
  rps: number;
  p50Ms: number;
  p99Ms: number;
  errors: number;
  /** CPU of the load generator, which shares the machine's cores with the workers. */
  loadCpuCores: number;
}

export interface WorkersResult {
  scenario: string;
  connections: number;
  workers: number;
  one: WorkersCell;
  many: WorkersCell;
  /** Requests per second with N workers over with one. */
  ratio: number;
}
