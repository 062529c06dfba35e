/**
 * Server processes of a benchmark run: spawned as direct children (so /proc/<pid> is the
 * server itself, not a wrapper), remembered, and all killed when the run ends, fails or is
 * interrupted.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url)).replace(/\/$/, '');

/** `node --import <this>` runs TypeScript files without a build step. */
export const TSX_LOADER = pathToFileURL(join(REPO_ROOT, 'node_modules/tsx/dist/loader.mjs')).href;

export interface ChildServer {
  name: string;
  pid: number;
  port: number;
  baseUrl: string;
  child: ChildProcess;
  /** Resolves once the process has exited and its output has been read. */
  exited: Promise<void>;
  /** The last few kilobytes the process printed, for error messages. */
  output(): string;
  /** SIGTERM, then SIGKILL after `graceMs`; resolves once the process is gone. */
  stop(graceMs?: number): Promise<void>;
}

const live = new Set<ChildProcess>();
let exitHookInstalled = false;

function killAllNow(): void {
  for (const child of live) {
    try {
      child.kill('SIGKILL');
    } catch {
      // already gone
    }
  }
  live.clear();
}

/** Kills every tracked child on SIGINT/SIGTERM too (the runner's CLI installs this; tests don't). */
export function installSignalCleanup(): void {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      killAllNow();
      process.exit(130);
    });
  }
}

const OUTPUT_KEEP = 8192;

export interface SpawnOptions {
  name: string;
  command: string;
  args: string[];
  env: NodeJS.ProcessEnv;
  cwd?: string;
  port: number;
}

export function spawnServer(options: SpawnOptions): ChildServer {
  if (!exitHookInstalled) {
    process.on('exit', killAllNow);
    exitHookInstalled = true;
  }
  const child = spawn(options.command, options.args, { cwd: options.cwd ?? REPO_ROOT, env: options.env, stdio: ['ignore', 'pipe', 'pipe'] });
  live.add(child);
  let output = '';
  const keep = (chunk: Buffer): void => {
    output = (output + chunk.toString('utf8')).slice(-OUTPUT_KEEP);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  // 'close' (not 'exit') so that everything the process printed has been read by then.
  const exited = new Promise<void>((resolve) => {
    child.once('close', () => {
      live.delete(child);
      resolve();
    });
  });
  if (child.pid === undefined) throw new Error(`${options.name}: could not start ${options.command}`);
  return {
    name: options.name,
    pid: child.pid,
    port: options.port,
    baseUrl: `http://127.0.0.1:${options.port}`,
    child,
    exited,
    output: () => output,
    async stop(graceMs = 5000) {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** A port that was free a moment ago on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** Polls `url` until it answers `okStatus`, the process dies, or `timeoutMs` passes. */
export async function waitForHttp(server: ChildServer, path: string, timeoutMs: number, okStatus = 200): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let lastError = '';
  while (Date.now() < deadline) {
    if (server.child.exitCode !== null || server.child.signalCode !== null) {
      await server.exited;
      throw new Error(`${server.name} exited (${server.child.exitCode ?? server.child.signalCode}) before it was ready:\n${server.output()}`);
    }
    try {
      const response = await fetch(`${server.baseUrl}${path}`, { signal: AbortSignal.timeout(1000) });
      await response.arrayBuffer();
      if (response.status === okStatus) return;
      lastError = `status ${response.status}`;
    } catch (error) {
      lastError = (error as Error).message;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${server.name} not ready within ${timeoutMs} ms (${lastError}):\n${server.output()}`);
}

/** The environment a child gets: only what it needs to run, never the caller's provider keys. */
export function baseEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: process.env.HOME, LANG: process.env.LANG ?? 'C.UTF-8' };
  return { ...env, ...extra };
}
