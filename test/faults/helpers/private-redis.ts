/**
 * A Redis server of a test's own: `redis-server` on a free loopback port, nothing persisted
 * (`--save "" --appendonly no`), so a test owns every key in it and can kill it (SIGKILL, like a
 * crash) and start it again on the same port, empty, as a Redis that lost its data, or freeze it
 * (SIGSTOP) as a host that stopped answering without closing its connections.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createConnection } from 'node:net';
import { freePort } from '../../helpers/free-port.js';

const REDIS_SERVER = process.env.GENGATE_TEST_REDIS_SERVER ?? '/usr/bin/redis-server';

export interface PrivateRedis {
  port: number;
  url: string;
  /** Whether a server is running now. */
  running(): boolean;
  /** Kills the server with SIGKILL and waits until it is gone. */
  kill(): Promise<void>;
  /** Freezes the server (SIGSTOP): connections stay open and nothing is answered, like a hung host. */
  pause(): void;
  /** Lets a paused server run again (SIGCONT). */
  resume(): void;
  /** Starts a fresh (empty) server on the same port; waits until it answers. */
  restart(): Promise<void>;
  /** The servers' output so far, for diagnostics. */
  output(): string;
}

/** Sends PING on a fresh connection; true when the answer is PONG within 500 ms. */
function ping(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(500, () => done(false));
    socket.once('error', () => done(false));
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.once('data', (chunk) => done(chunk.toString().startsWith('+PONG')));
  });
}

export async function startPrivateRedis(): Promise<PrivateRedis> {
  if (!existsSync(REDIS_SERVER)) throw new Error(`no redis-server at ${REDIS_SERVER} (set GENGATE_TEST_REDIS_SERVER to its path)`);
  const port = await freePort();
  let child: ChildProcess | undefined;
  let output = '';

  async function launch(): Promise<void> {
    const started = spawn(REDIS_SERVER, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', '/tmp'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child = started;
    started.on('error', (error) => (output += `\n${String(error)}`));
    started.stdout!.on('data', (chunk) => (output += chunk));
    started.stderr!.on('data', (chunk) => (output += chunk));
    const deadline = Date.now() + 10_000;
    while (!(await ping(port))) {
      if (Date.now() > deadline || started.exitCode !== null) {
        started.kill('SIGKILL');
        throw new Error(`redis-server did not start on port ${port}:\n${output}`);
      }
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  async function kill(): Promise<void> {
    const current = child;
    if (!current || current.exitCode !== null || current.signalCode !== null) return;
    const gone = new Promise<void>((resolve) => current.once('exit', () => resolve()));
    current.kill('SIGKILL');
    await gone;
  }

  await launch();
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    running: () => child !== undefined && child.exitCode === null && child.signalCode === null,
    kill,
    pause: () => void child?.kill('SIGSTOP'),
    resume: () => void child?.kill('SIGCONT'),
    async restart() {
      await kill();
      await launch();
    },
    output: () => output,
  };
}
