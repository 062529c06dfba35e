/**
 * A real gateway process for the fuzz suite: the sandbox serving every model, a temporary data
 * directory, listening on 127.0.0.1 only, streams unpaced (so the run measures robustness, not
 * the sandbox's simulated typing speed). Its database is a SQLite file in the data directory, or
 * the PostgreSQL database given; a restart passes the previous process's work dir and database.
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { baseEnv, type ChildServer, freePort, REPO_ROOT, spawnServer, TSX_LOADER, waitForHttp } from '../bench/child-processes.js';

export const FUZZ_KEY = 'gg-fuzz-master-key-0123456789abcdef';

export interface FuzzGateway extends ChildServer {
  workDir: string;
  databaseUrl: string;
  remove(): void;
}

export interface FuzzGatewayOptions {
  /** `postgres://…`; default a SQLite file in the work dir. */
  databaseUrl?: string;
  /** More top-level YAML for gengate.yaml (channels). */
  extraYaml?: string;
  /** Start on this work dir (and its gengate.yaml) again: a restart. */
  workDir?: string;
}

export async function startFuzzGateway(options: FuzzGatewayOptions = {}): Promise<FuzzGateway> {
  const port = await freePort();
  const workDir = options.workDir ?? mkdtempSync(join(tmpdir(), 'gengate-fuzz-'));
  const configPath = join(workDir, 'gengate.yaml');
  if (!existsSync(configPath)) writeFileSync(configPath, `sandbox:\n  tokensPerSecond: 0\n  firstTokenDelayMs: 0\n${options.extraYaml ?? ''}`);
  const databaseUrl = options.databaseUrl ?? `sqlite:${join(workDir, 'fuzz.db')}`;
  const env = baseEnv({
    GENGATE_HOST: '127.0.0.1',
    GENGATE_PORT: String(port),
    GENGATE_DATABASE_URL: databaseUrl,
    GENGATE_DATA_DIR: join(workDir, 'data'),
    GENGATE_MASTER_KEY: FUZZ_KEY,
    GENGATE_ACCESS_LOG: 'false',
    GENGATE_LOG_LEVEL: 'error',
    GENGATE_SANDBOX: 'true',
    // Metrics on, so hostile input runs through their hooks too; /metrics on the main port behind the fuzz key.
    GENGATE_METRICS: 'true',
    GENGATE_METRICS_TOKEN: FUZZ_KEY,
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
  const remove = () => rmSync(workDir, { recursive: true, force: true });
  try {
    await waitForHttp(server, '/healthz', 60_000);
  } catch (error) {
    await server.stop();
    // A failed restart keeps the work dir: its caller reports the failure and removes it.
    if (options.workDir === undefined) remove();
    throw error;
  }
  return { ...server, workDir, databaseUrl, remove };
}
