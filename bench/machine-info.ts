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

export function collectMachineInfo(gengateRoot: string = REPO_ROOT): MachineInfo {
  const freeLine = run('free', ['-h'])
    ?.split('\n')
    .find((line) => line.startsWith('Mem:'));
  const commit = run('git', ['rev-parse', '--short', 'HEAD'], gengateRoot) ?? 'not a git checkout';
  const dirty = (run('git', ['status', '--porcelain', '--', 'src'], gengateRoot) ?? '').length > 0;
  return {
    cpus: cpus().length,
    cpuModel: cpus()[0]?.model ?? 'unknown',
    memory: freeLine ? `free -h: ${freeLine.replace(/\s+/g, ' ')}` : `${(totalmem() / 1024 ** 3).toFixed(1)} GiB`,
    os: `Linux ${release()}`,
    node: process.version,
    gengateVersion: `${packageVersion(join(gengateRoot, 'package.json'))}${gengateRoot === REPO_ROOT ? '' : ` at ${gengateRoot}`}`,
    gengateCommit: dirty ? `${commit} + uncommitted changes in src/` : commit,
    portkeyVersion: portkeyVersion() ?? 'not installed',
    honoNodeServerVersion: honoNodeServerVersion() ?? 'n/a',
    autocannonVersion: packageVersion(join(REPO_ROOT, 'node_modules/autocannon/package.json')),
  };
}
