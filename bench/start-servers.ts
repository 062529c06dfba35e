/**
 * Starts the three servers a run measures, each as its own process: the mock upstream,
 * gengate (built `dist/` or `tsx src/`) and Portkey's gateway from bench/node_modules.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { baseEnv, freePort, REPO_ROOT, spawnServer, TSX_LOADER, waitForHttp, type ChildServer } from './child-processes.js';
import { DEFAULT_MOCK_OPTIONS, type MockOptions } from './mock-upstream.js';

export const BENCH_DIR = join(REPO_ROOT, 'bench');
export const PORTKEY_DIR = join(BENCH_DIR, 'node_modules/@portkey-ai/gateway');
/** The API key every client sends to gengate (its master key) and the mock accepts upstream. */
export const GENGATE_KEY = 'gg-bench-master-key-0123456789';
export const UPSTREAM_KEY = DEFAULT_MOCK_OPTIONS.apiKey;

export async function startMock(options: Partial<MockOptions> = {}): Promise<ChildServer> {
  const port = await freePort();
  const merged = { ...DEFAULT_MOCK_OPTIONS, ...options };
  const args = [
    '--import',
    TSX_LOADER,
    join(BENCH_DIR, 'mock-upstream.ts'),
    `--port=${port}`,
    `--latency=${merged.latencyMs}`,
    `--ttft=${merged.ttftMs}`,
    `--tps=${merged.tps}`,
    `--size=${merged.size}`,
    `--dims=${merged.embeddingDims}`,
    `--key=${merged.apiKey}`,
  ];
  const server = spawnServer({ name: 'mock', command: process.execPath, args, env: baseEnv({}), port });
  await waitForHttp(server, '/healthz', 20_000);
  return server;
}

/** The bare Node.js proxy in front of the mock (see bare-proxy.ts). */
export async function startBareProxy(mockPort: number): Promise<ChildServer> {
  const port = await freePort();
  const args = ['--import', TSX_LOADER, join(BENCH_DIR, 'bare-proxy.ts'), `--port=${port}`, `--upstream=http://127.0.0.1:${mockPort}`];
  const server = spawnServer({ name: 'bare-proxy', command: process.execPath, args, env: baseEnv({ NODE_ENV: 'production' }), port });
  await waitForHttp(server, '/healthz', 20_000);
  return server;
}

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestMtime(path));
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts')) newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
}

/** Builds gengate in `root` when dist/cli.js is missing or older than any source file; throws if the build fails. */
export function ensureGengateBuilt(root: string = REPO_ROOT, log: (line: string) => void = () => {}): void {
  const cli = join(root, 'dist/cli.js');
  if (existsSync(cli) && statSync(cli).mtimeMs >= newestMtime(join(root, 'src'))) return;
  log(`building gengate in ${root} (npm run build)…`);
  const result = spawnSync('npm', ['run', 'build'], { cwd: root, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`npm run build failed:\n${(result.stdout + result.stderr).slice(-4000)}`);
}

export interface GengateLaunch {
  mockPort: number;
  /** `dist` runs the built gateway (for measurements), `tsx` runs src/ directly. */
  mode: 'dist' | 'tsx';
  /** The gengate checkout to run (default: this one), e.g. another version to compare. */
  root?: string;
  /** Extra node flags, e.g. `--cpu-prof`. */
  nodeArgs?: string[];
  /** Where the process writes its database and any profile; created when omitted. */
  workDir?: string;
  /** Variables added to its environment (a traced cell's OTEL_*, a metrics cell's settings). */
  env?: Record<string, string>;
  /** Flags after `start`, e.g. `--workers 2`. */
  args?: string[];
}

export interface RunningGengate extends ChildServer {
  workDir: string;
}

/** The environment of a measured gengate: its port, a database in `workDir`, every provider at the mock. */
export function gengateEnv(options: { port: number; mockPort: number; workDir: string }): NodeJS.ProcessEnv {
  const upstream = `http://127.0.0.1:${options.mockPort}`;
  return baseEnv({
    NODE_ENV: 'production',
    GENGATE_HOST: '127.0.0.1',
    GENGATE_PORT: String(options.port),
    GENGATE_DATABASE_URL: `sqlite:${join(options.workDir, 'bench.db')}`,
    GENGATE_DATA_DIR: join(options.workDir, 'data'),
    GENGATE_MASTER_KEY: GENGATE_KEY,
    GENGATE_ACCESS_LOG: 'false',
    GENGATE_LOG_LEVEL: 'warn',
    GENGATE_SANDBOX: 'false',
    OPENAI_API_KEY: UPSTREAM_KEY,
    OPENAI_BASE_URL: `${upstream}/v1`,
    ANTHROPIC_API_KEY: UPSTREAM_KEY,
    ANTHROPIC_BASE_URL: upstream,
    GEMINI_API_KEY: UPSTREAM_KEY,
    GEMINI_BASE_URL: upstream,
  });
}

export async function startGengate(launch: GengateLaunch): Promise<RunningGengate> {
  const port = await freePort();
  const workDir = launch.workDir ?? mkdtempSync(join(tmpdir(), 'gengate-bench-'));
  const env = { ...gengateEnv({ port, mockPort: launch.mockPort, workDir }), ...launch.env };
  const root = launch.root ?? REPO_ROOT;
  const entry = launch.mode === 'dist' ? [join(root, 'dist/cli.js')] : ['--import', TSX_LOADER, join(root, 'src/cli.ts')];
  const args = [...(launch.nodeArgs ?? []), ...entry, 'start', ...(launch.args ?? [])];
  // cwd is the work dir so that a gengate.yaml of the developer's never leaks into a run.
  const server = spawnServer({ name: 'gengate', command: process.execPath, args, env, cwd: workDir, port });
  await waitForHttp(server, '/healthz', 60_000);
  return { ...server, workDir };
}

/** Removes a gengate work dir (database, profiles) once the process is gone. */
export function removeWorkDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

export function portkeyVersion(): string | undefined {
  try {
    return (JSON.parse(readFileSync(join(PORTKEY_DIR, 'package.json'), 'utf8')) as { version: string }).version;
  } catch {
    return undefined;
  }
}

export function honoNodeServerVersion(): string | undefined {
  try {
    const path = join(BENCH_DIR, 'node_modules/@hono/node-server/package.json');
    return (JSON.parse(readFileSync(path, 'utf8')) as { version: string }).version;
  } catch {
    return undefined;
  }
}

/** Installs the bench package (Portkey and its pinned @hono/node-server) when it is missing. */
export function ensurePortkeyInstalled(log: (line: string) => void = () => {}): void {
  if (existsSync(join(PORTKEY_DIR, 'build/start-server.js'))) return;
  log('installing the bench package (npm --prefix bench install)…');
  const lock = existsSync(join(BENCH_DIR, 'package-lock.json'));
  const result = spawnSync('npm', ['--prefix', BENCH_DIR, lock ? 'ci' : 'install', '--no-audit', '--no-fund'], { cwd: REPO_ROOT, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`installing the bench package failed:\n${(result.stdout + result.stderr).slice(-4000)}`);
}

export async function startPortkey(): Promise<ChildServer> {
  const port = await freePort();
  const server = spawnServer({
    name: 'portkey',
    command: process.execPath,
    args: [join(PORTKEY_DIR, 'build/start-server.js'), `--port=${port}`, '--headless'],
    env: baseEnv({}),
    cwd: BENCH_DIR,
    port,
  });
  // Portkey answers `GET /` with 200 once listening.
  await waitForHttp(server, '/', 30_000);
  return server;
}
