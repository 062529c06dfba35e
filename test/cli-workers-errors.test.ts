/** `gengate start --workers`: a worker count that is not one, or a database the workers cannot share, is one line and exit 2. */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const dir = mkdtempSync(join(tmpdir(), 'gengate-workers-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function start(args: string[], env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli.ts', 'start', ...args], {
    cwd: process.cwd(),
    env: { ...process.env, GENGATE_DATA_DIR: dir, GENGATE_DATABASE_URL: `sqlite:${join(dir, 'g.db')}`, GENGATE_CONFIG: '', GENGATE_PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const timer = setTimeout(() => child.kill('SIGKILL'), 40_000);
  return new Promise((resolve) =>
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    }),
  );
}

describe('gengate start --workers, refused', () => {
  it.concurrent('a count that is neither a whole number from 1 to 256 nor auto', async () => {
    const outcome = await start(['--workers', 'lots'], {});
    expect(outcome).toEqual({ code: 2, stdout: '', stderr: 'gengate: --workers must be a whole number from 1 to 256, or "auto"\n' });
  }, 60_000);

  it.concurrent('the same from the environment', async () => {
    const fromEnv = await start([], { GENGATE_WORKERS: '0' });
    expect(fromEnv.code).toBe(2);
    expect(fromEnv.stderr).toBe('gengate: GENGATE_WORKERS must be a whole number from 1 to 256, or "auto"\n');
  }, 60_000);

  it.concurrent('an in-memory database, which would be one per worker', async () => {
    const outcome = await start(['--workers', '2'], { GENGATE_DATABASE_URL: 'sqlite::memory:' });
    expect(outcome.code).toBe(2);
    expect(outcome.stderr).toBe('gengate: --workers above 1 needs a database the workers share: sqlite::memory: is one database per process\n');
  }, 60_000);
});
