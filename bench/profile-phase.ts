/**
 * Profiles gengate under the non-stream pass-through load: a separate gengate process with
 * `node --cpu-prof`, loaded, then stopped gracefully so V8 writes the profile on exit.
 */
import { copyFileSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ProfileSummary } from './bench-types.js';
import { summarizeCpuProfile, type CpuProfile } from './cpu-profile-summary.js';
import { runLoad } from './run-load.js';
import { scenarioById } from './scenarios.js';
import { GENGATE_KEY, removeWorkDir, startGengate, UPSTREAM_KEY } from './start-servers.js';

export interface ProfilePhaseOptions {
  mockPort: number;
  scenario: string;
  connections: number;
  durationSec: number;
  gengateMode: 'dist' | 'tsx';
  gengateRoot: string;
  /** Where the raw .cpuprofile is kept for a closer look (Chrome DevTools, speedscope). */
  keepDir: string;
}

export async function runProfilePhase(options: ProfilePhaseOptions): Promise<{ summary: ProfileSummary; file: string }> {
  const gengate = await startGengate({
    mockPort: options.mockPort,
    mode: options.gengateMode,
    root: options.gengateRoot,
    nodeArgs: ['--cpu-prof', '--cpu-prof-dir=prof'],
  });
  try {
    const request = scenarioById(options.scenario).request('gengate', { mockPort: options.mockPort, gengateKey: GENGATE_KEY, upstreamKey: UPSTREAM_KEY });
    const load = { baseUrl: gengate.baseUrl, request, connections: options.connections };
    await runLoad({ ...load, durationSec: 1 });
    // Only the measured window counts: start-up and warm-up stay out of the figures.
    const startUs = Number(process.hrtime.bigint() / 1000n);
    await runLoad({ ...load, durationSec: options.durationSec });
    const endUs = Number(process.hrtime.bigint() / 1000n);
    await gengate.stop(20_000);
    const dir = join(gengate.workDir, 'prof');
    const name = readdirSync(dir).find((file) => file.endsWith('.cpuprofile'));
    if (!name) throw new Error('gengate exited without writing a .cpuprofile (was it killed instead of stopping?)');
    const profile = JSON.parse(readFileSync(join(dir, name), 'utf8')) as CpuProfile;
    mkdirSync(options.keepDir, { recursive: true });
    const kept = join(options.keepDir, `gengate-${options.scenario}-c${options.connections}.cpuprofile`);
    copyFileSync(join(dir, name), kept);
    const scenario = `${scenarioById(options.scenario).title}, c=${options.connections}, ${options.durationSec} s after 1 s of warm-up`;
    let summary = summarizeCpuProfile(profile, { repoRoot: options.gengateRoot, scenario, window: { startUs, endUs } });
    // Should the profiler's clock ever differ from hrtime's, fall back to the whole profile rather than to nothing.
    if (summary.totalMs === 0)
      summary = summarizeCpuProfile(profile, { repoRoot: options.gengateRoot, scenario: `${scenario} (whole process, start-up included)` });
    return { summary, file: kept };
  } finally {
    await gengate.stop();
    removeWorkDir(gengate.workDir);
  }
}
