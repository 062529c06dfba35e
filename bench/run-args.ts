/** The runner's command-line flags. */
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { TARGETS, type TargetName } from './bench-types.js';
import { REPO_ROOT } from './child-processes.js';
import { SCENARIOS } from './scenarios.js';

export interface RunArgs {
  durationSec: number;
  warmupSec: number;
  /** Each cell's time is cut into this many slices, interleaved across targets. */
  rounds: number;
  connections: number[];
  scenarios: string[];
  targets: TargetName[];
  mock: { latencyMs: number; ttftMs: number; tps: number; size: number };
  capacity: { streams: number; tps: number; size: number; ttftMs: number } | undefined;
  profile: boolean;
  /** The scenario the profile runs under (default: non-stream pass-through). */
  profileScenario: string;
  gengateMode: 'dist' | 'tsx';
  /** The gengate checkout to measure. */
  gengateRoot: string;
  /** Another gengate checkout measured alongside (target `gengate-base`), slice for slice. */
  baselineRoot: string | undefined;
  /** Markdown file the results go into; undefined = don't write one. */
  reportPath: string | undefined;
  /** Workers of the `--workers` cell (pass-through chat, N workers against one); 0 skips it. */
  workers: number;
  quick: boolean;
  help: boolean;
}

export const USAGE = `usage: npm run bench -- [flags]

  --quick               short run (2 s cells, 200 streams): checks the harness, not the targets
  --duration S          seconds measured per cell (default 8; quick 2)
  --warmup S            seconds of unmeasured load before each cell (default 1; quick 0.5)
  --rounds N            slices per cell, interleaved across targets (default 4; quick 2)
  --connections 1,64    concurrency levels
  --scenarios a,b       subset of: ${SCENARIOS.map((s) => s.id).join(', ')}
  --targets a,b         subset of: ${TARGETS.join(', ')}
  --latency MS --ttft MS --tps N --size N
                        mock upstream settings for the scenarios (default 0, 0, 0 = unpaced, 64 tokens)
  --streams N           concurrent streams in the capacity check (default 1000; quick 200; 0 = skip)
  --stream-tps N --stream-size N --stream-ttft MS
                        pacing of those streams (default 10 tokens/s, 100 tokens, 100 ms: ~10 s each)
  --workers N           also measure pass-through chat against gengate with N workers and with one
                        (default 2; 0 = skip)
  --no-profile          skip the CPU profile of gengate
  --profile-scenario ID profile gengate under another scenario (default chat)
  --gengate dist|tsx    run the built dist/ (default; built first when stale) or src/ through tsx
  --gengate-root DIR    measure the gengate checkout in DIR instead of this one (to compare versions)
  --baseline-root DIR   also measure the gengate checkout in DIR, as target gengate-base, interleaved
                        with gengate in every cell, and report CPU per request against it
  --report FILE         where the Markdown goes (default docs/benchmarks.md, none for --quick); --no-report to skip
`;

function positive(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  const parsed = Number(value);
  if (!Number.isFinite(parsed) || parsed < 0) throw new Error(`--${name}: expected a number ≥ 0, got "${value}"`);
  return parsed;
}

function list(value: string | undefined): string[] | undefined {
  return value
    ?.split(',')
    .map((item) => item.trim())
    .filter(Boolean);
}

export function parseRunArgs(argv: string[]): RunArgs {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    options: {
      quick: { type: 'boolean', default: false },
      duration: { type: 'string' },
      warmup: { type: 'string' },
      rounds: { type: 'string' },
      connections: { type: 'string' },
      scenarios: { type: 'string' },
      targets: { type: 'string' },
      latency: { type: 'string' },
      ttft: { type: 'string' },
      tps: { type: 'string' },
      size: { type: 'string' },
      streams: { type: 'string' },
      'stream-tps': { type: 'string' },
      'stream-size': { type: 'string' },
      'stream-ttft': { type: 'string' },
      'no-profile': { type: 'boolean', default: false },
      workers: { type: 'string' },
      'profile-scenario': { type: 'string', default: 'chat' },
      gengate: { type: 'string', default: 'dist' },
      'gengate-root': { type: 'string' },
      'baseline-root': { type: 'string' },
      report: { type: 'string' },
      'no-report': { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
  });
  const quick = values.quick ?? false;
  const connections = (list(values.connections) ?? ['1', '64']).map((c) => Math.floor(positive('connections', c, 1)));
  if (connections.some((c) => c < 1)) throw new Error('--connections: every level must be ≥ 1');

  const scenarios = list(values.scenarios) ?? SCENARIOS.map((s) => s.id);
  for (const id of scenarios) if (!SCENARIOS.some((s) => s.id === id)) throw new Error(`--scenarios: unknown scenario "${id}"`);

  const targets = (list(values.targets) ?? [...TARGETS]) as TargetName[];
  for (const target of targets) if (!TARGETS.includes(target)) throw new Error(`--targets: unknown target "${target}"`);
  if (values['baseline-root'] !== undefined) {
    if (!targets.includes('gengate')) throw new Error('--baseline-root: needs gengate among the targets');
    targets.splice(targets.indexOf('gengate') + 1, 0, 'gengate-base');
  }

  if (!SCENARIOS.some((s) => s.id === values['profile-scenario'])) throw new Error(`--profile-scenario: unknown scenario "${values['profile-scenario']}"`);
  if (values.gengate !== 'dist' && values.gengate !== 'tsx') throw new Error(`--gengate: expected dist or tsx, got "${values.gengate}"`);

  const streams = Math.floor(positive('streams', values.streams, quick ? 200 : 1000));
  return {
    durationSec: positive('duration', values.duration, quick ? 2 : 8),
    warmupSec: positive('warmup', values.warmup, quick ? 0.5 : 1),
    rounds: Math.max(1, Math.floor(positive('rounds', values.rounds, quick ? 2 : 4))),
    connections,
    scenarios,
    targets,
    mock: {
      latencyMs: positive('latency', values.latency, 0),
      ttftMs: positive('ttft', values.ttft, 0),
      tps: positive('tps', values.tps, 0),
      size: Math.floor(positive('size', values.size, 64)),
    },
    capacity:
      streams > 0
        ? {
            streams,
            tps: positive('stream-tps', values['stream-tps'], 10),
            size: Math.floor(positive('stream-size', values['stream-size'], quick ? 30 : 100)),
            ttftMs: positive('stream-ttft', values['stream-ttft'], 100),
          }
        : undefined,
    workers: Math.floor(positive('workers', values.workers, 2)),
    profile: !values['no-profile'],
    profileScenario: values['profile-scenario'],
    gengateMode: values.gengate,
    gengateRoot: resolve(values['gengate-root'] ?? REPO_ROOT),
    baselineRoot: values['baseline-root'] === undefined ? undefined : resolve(values['baseline-root']),
    // A quick run's figures check the harness: they do not replace the report's.
    reportPath: values['no-report'] || (quick && values.report === undefined) ? undefined : (values.report ?? 'docs/benchmarks.md'),
    quick,
    help: values.help ?? false,
  };
}
