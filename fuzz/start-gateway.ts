/**
 * A real gateway process for the fuzz suite: the sandbox serving every model, a temporary data
 * directory, listening on 127.0.0.1 only, streams unpaced (so the run measures robustness, not
 * the sandbox's simulated typing speed).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { baseEnv, type ChildServer, freePort, REPO_ROOT, spawnServer, TSX_LOADER, waitForHttp } from '../bench/child-processes.js';

export const FUZZ_KEY = 'gg-fuzz-master-key-0123456789abcdef';

export interface FuzzGateway extends ChildServer {
  workDir: string;
  remove(): void;
}

export async function startFuzzGateway(): Promise<FuzzGateway> {
  const port = await freePort();
  const workDir = mkdtempSync(join(tmpdir(), 'gengate-fuzz-'));
  writeFileSync(join(workDir, 'gengate.yaml'), 'sandbox:\n  tokensPerSecond: 0\n  firstTokenDelayMs: 0\n');
  const env = baseEnv({
    GENGATE_HOST: '127.0.0.1',
    GENGATE_PORT: String(port),
    GENGATE_DATABASE_URL: `sqlite:${join(workDir, 'fuzz.db')}`,
    GENGATE_DATA_DIR: join(workDir, 'data'),
    GENGATE_MASTER_KEY: FUZZ_KEY,
    GENGATE_ACCESS_LOG: 'false',
    GENGATE_LOG_LEVEL: 'error',
    GENGATE_SANDBOX: 'true',
  });
  // cwd is the work dir, so its gengate.yaml is the one read (never a developer's own).
  const server = spawnServer({
    name: 'gengate',
    command: process.execPath,
    args: ['--import', TSX_LOADER, join(REPO_ROOT, 'src/cli.ts'), 'start'],
    env,
    cwd: workDir,
    port,
  });
  try {
    await waitForHttp(server, '/healthz', 60_000);
  } catch (error) {
    await server.stop();
    rmSync(workDir, { recursive: true, force: true });
    throw error;
  }
  return { ...server, workDir, remove: () => rmSync(workDir, { recursive: true, force: true }) };
}
