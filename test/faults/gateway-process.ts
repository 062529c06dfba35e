/**
 * A real gateway process for fault tests: `gengate start` through tsx on a free port, with its
 * own data folder, database and sandbox pace, stopped by signals (or `kill -9`) like in production.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
export { freePort } from '../helpers/free-port.js';
import { freePort } from '../helpers/free-port.js';

export const MASTER_KEY = 'gg-fault-suite-master-key-0123456789';

export interface GatewaySetup {
  dataDir: string;
  databaseUrl: string;
  tokensPerSecond: number;
  drainTimeoutMs?: number;
  /** `server.drainDelayMs`: 0 unless given, so a SIGTERM closes the listener at once. */
  drainDelayMs?: number;
  /** More top-level YAML for gengate.yaml (channels, tasks, media…; not `sandbox`, written here). */
  extraYaml?: string;
  /** The config file's name in `dataDir` (processes sharing a data folder may each want their own). */
  configName?: string;
  /** Listen here (a restart on its predecessor's address) instead of on a fresh free port. */
  port?: number;
  /** How long the process may take to listen (default 120 s: on a loaded 2-core host tsx's start alone can take over 30 s). */
  startTimeoutMs?: number;
  /** More environment for the process (e.g. `GENGATE_REDIS_URL`), over the test's own. */
  env?: Record<string, string>;
}

export interface GatewayProcess {
  url: string;
  child: ChildProcess;
  output(): string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export async function startGatewayProcess(setup: GatewaySetup): Promise<GatewayProcess> {
  const port = setup.port ?? (await freePort());
  const configPath = join(setup.dataDir, setup.configName ?? 'gengate.yaml');
  writeFileSync(configPath, `sandbox:\n  tokensPerSecond: ${setup.tokensPerSecond}\n  firstTokenDelayMs: 20\n${setup.extraYaml ?? ''}`);
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli.ts', 'start'], {
    cwd: process.cwd(),
    env: {
      ...process.env,
      GENGATE_CONFIG: configPath,
      GENGATE_PORT: String(port),
      GENGATE_DATA_DIR: setup.dataDir,
      GENGATE_DATABASE_URL: setup.databaseUrl,
      GENGATE_MASTER_KEY: MASTER_KEY,
      GENGATE_LOG_LEVEL: 'warn',
      GENGATE_ACCESS_LOG: 'false',
      GENGATE_DRAIN_DELAY_MS: String(setup.drainDelayMs ?? 0),
      ...(setup.drainTimeoutMs !== undefined ? { GENGATE_DRAIN_TIMEOUT_MS: String(setup.drainTimeoutMs) } : {}),
      ...setup.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const deadline = Date.now() + (setup.startTimeoutMs ?? 120_000);
  while (!output.includes('gengate listening on')) {
    if (Date.now() > deadline || child.exitCode !== null) {
      child.kill('SIGKILL');
      throw new Error(`gateway did not start:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return { url: `http://127.0.0.1:${port}`, child, output: () => output, exited };
}
