/**
 * A PostgreSQL server of a test's own, so a test can crash and restart it without touching the
 * machine's shared one (which other tests use at the same time): `initdb` into a temporary folder
 * (trust auth; fsync off, which a server crash without a machine crash does not need), `pg_ctl start` on a free loopback port with its socket in that folder.
 * `crash()` is `pg_ctl stop -m immediate` — every backend killed, no checkpoint, as when the
 * server dies — and `start()` brings it back on the same port and data, through crash recovery.
 * Run as root, the server commands run as the `postgres` user (PostgreSQL refuses root).
 */
import { execFile } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { freePort } from '../../helpers/free-port.js';

const run = promisify(execFile);
const POSTGRES_USER = 'postgres';

export interface PrivatePostgres {
  port: number;
  /** Connection URL of `database` (default `postgres`) as the superuser. */
  url(database?: string): string;
  /** Creates a database and answers its URL. */
  createDatabase(name: string): Promise<string>;
  /** Whether the server answers now. */
  running(): boolean;
  /** `pg_ctl stop -m immediate`: the server and every backend die at once, like a crash. */
  crash(): Promise<void>;
  /** Starts the server again on the same port and data; resolves once it accepts connections. */
  start(): Promise<void>;
  /** The server's log, for a failed test's report. */
  log(): string;
  /** Stops the server and deletes its folder. */
  destroy(): Promise<void>;
}

/** The `bin` folder of the newest PostgreSQL installed (`GENGATE_TEST_POSTGRES_BIN` overrides). */
function postgresBin(): string {
  if (process.env.GENGATE_TEST_POSTGRES_BIN) return process.env.GENGATE_TEST_POSTGRES_BIN;
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root) ? readdirSync(root).filter((name) => existsSync(join(root, name, 'bin', 'initdb'))) : [];
  if (versions.length === 0) throw new Error(`no initdb under ${root}/*/bin (set GENGATE_TEST_POSTGRES_BIN to PostgreSQL's bin folder)`);
  versions.sort((a, b) => Number(b) - Number(a));
  return join(root, versions[0], 'bin');
}

const asRoot = process.getuid?.() === 0;

/** Runs a PostgreSQL server command, as the `postgres` user when this process is root. */
function runServerCommand(bin: string, tool: string, args: string[]): Promise<{ stdout: string; stderr: string }> {
  const command = join(bin, tool);
  return asRoot ? run('runuser', ['-u', POSTGRES_USER, '--', command, ...args]) : run(command, args);
}

export async function startPrivatePostgres(): Promise<PrivatePostgres> {
  const bin = postgresBin();
  const dir = mkdtempSync(join(tmpdir(), 'gengate-pg-'));
  if (asRoot) {
    const { stdout } = await run('id', ['-u', POSTGRES_USER]);
    const { stdout: group } = await run('id', ['-g', POSTGRES_USER]);
    chownSync(dir, Number(stdout.trim()), Number(group.trim()));
  }
  const data = join(dir, 'data');
  const logFile = join(dir, 'server.log');
  const port = await freePort();
  let up = false;

  await runServerCommand(bin, 'initdb', ['-D', data, '-A', 'trust', '-U', POSTGRES_USER, '-E', 'UTF8', '--no-sync']);
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`;

  async function start(): Promise<void> {
    await runServerCommand(bin, 'pg_ctl', ['-D', data, '-o', options, '-l', logFile, '-w', '-t', '30', 'start']);
    up = true;
  }

  async function crash(): Promise<void> {
    await runServerCommand(bin, 'pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
    up = false;
  }

  const url = (database = 'postgres') => `postgres://${POSTGRES_USER}@127.0.0.1:${port}/${database}`;

  try {
    await start();
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }

  return {
    port,
    url,
    async createDatabase(name) {
      const admin = new pg.Client({ connectionString: url() });
      await admin.connect();
      try {
        await admin.query(`CREATE DATABASE ${name}`);
      } finally {
        await admin.end();
      }
      return url(name);
    },
    running: () => up,
    crash,
    start,
    log: () => (existsSync(logFile) ? readFileSync(logFile, 'utf8') : ''),
    async destroy() {
      if (up) await crash().catch(() => {});
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
