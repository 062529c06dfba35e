/** A real `gengate start` process for the browser test, and the one-time admin link its banner prints. */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../helpers/free-port.js';

export interface GatewayProcess {
  url: string;
  adminLink: string;
  output(): string;
  stop(): Promise<void>;
}

/** The dashboard is built by `npm install`; a checkout that skipped it is built here once. */
export function ensureDashboardBuilt(): void {
  if (!existsSync(join(process.cwd(), 'dist', 'dashboard', 'index.html'))) {
    execFileSync(process.execPath, ['scripts/build-dashboard.mjs', '--quiet'], { stdio: 'inherit' });
  }
}

export async function startGatewayProcess(env: Record<string, string>): Promise<GatewayProcess> {
  const home = mkdtempSync(join(tmpdir(), 'gengate-browser-'));
  const port = await freePort();
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'src/cli.ts', 'start'], {
    cwd: process.cwd(),
    env: {
      ...process.env,
      GENGATE_PORT: String(port),
      GENGATE_DATABASE_URL: `sqlite:${join(home, 'gengate.db')}`,
      GENGATE_DATA_DIR: home,
      GENGATE_LOG_LEVEL: 'warn',
      GENGATE_DRAIN_DELAY_MS: '0',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk) => (output += chunk));
  child.stderr?.on('data', (chunk) => (output += chunk));
  const deadline = Date.now() + 60_000;
  const linkIn = (text: string) => /(http:\/\/\S+\/dashboard\/setup#token=[A-Za-z0-9_-]+)/.exec(text)?.[1];
  let adminLink = linkIn(output);
  for (; adminLink === undefined; adminLink = linkIn(output)) {
    if (Date.now() > deadline || child.exitCode !== null) throw new Error(`the gateway printed no admin link:\n${output}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url: `http://127.0.0.1:${port}`,
    adminLink,
    output: () => output,
    stop: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}
