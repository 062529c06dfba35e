/** What machine and which versions a run measured, for the report. */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { cpus, release, totalmem } from 'node:os';
import { join } from 'node:path';
import type { MachineInfo } from './bench-types.js';
import { REPO_ROOT } from './child-processes.js';
import { honoNodeServerVersion, portkeyVersion } from './start-servers.js';

function run(command: string, args: string[], cwd = REPO_ROOT): string | undefined {
  try {
    return execFileSync(command, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return undefined;
  }
}

function packageVersion(path: string): string {
  try {
    return (JSON.parse(readFileSync(path, 'utf8')) as { version: string }).version;
  } catch {
    return 'unknown';
  }
}

/** A checkout's short commit, saying so when its src/ has uncommitted changes. */
function checkoutCommit(root: string): string {
  const commit = run('git', ['rev-parse', '--short', 'HEAD'], root) ?? 'not a git checkout';
  const dirty = (run('git', ['status', '--porcelain', '--', 'src'], root) ?? '').length > 0;
  return dirty ? `${commit} + uncommitted changes in src/` : commit;
}

export function collectMachineInfo(gengateRoot: string = REPO_ROOT, baselineRoot?: string): MachineInfo {
  const freeLine = run('free', ['-h'])
    ?.split('\n')
    .find((line) => line.startsWith('Mem:'));
  return {
    cpus: cpus().length,
    cpuModel: cpus()[0]?.model ?? 'unknown',
    memory: freeLine ? `free -h: ${freeLine.replace(/\s+/g, ' ')}` : `${(totalmem() / 1024 ** 3).toFixed(1)} GiB`,
    os: `Linux ${release()}`,
    node: process.version,
    gengateVersion: `${packageVersion(join(gengateRoot, 'package.json'))}${gengateRoot === REPO_ROOT ? '' : ` at ${gengateRoot}`}`,
    gengateCommit: checkoutCommit(gengateRoot),
    ...(baselineRoot === undefined ? {} : { baselineCommit: `${checkoutCommit(baselineRoot)} at ${baselineRoot}` }),
    portkeyVersion: portkeyVersion() ?? 'not installed',
    honoNodeServerVersion: honoNodeServerVersion() ?? 'n/a',
    autocannonVersion: packageVersion(join(REPO_ROOT, 'node_modules/autocannon/package.json')),
  };
}
