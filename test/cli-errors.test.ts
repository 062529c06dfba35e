/**
 * The `gengate` command's mistakes and start-up failures, as a user meets them: one clear line on
 * stderr (the usage text after a usage mistake), no stack trace, exit code 2 for a usage or
 * configuration mistake and 1 for a failure.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createTempDatabase } from './helpers/postgres.js';

const dir = mkdtempSync(join(tmpdir(), 'gengate-cli-errors-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Outcome {
  code: number | null;
  stdout: string;
  stderr: string;
}

function gengate(args: string[], env: Record<string, string> = {}): Promise<Outcome> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli.ts', ...args], {
    cwd: process.cwd(),
    env: {
      ...process.env,
      GENGATE_DATABASE_URL: `sqlite:${join(dir, 'gengate.db')}`,
      GENGATE_LOG_LEVEL: 'warn',
      GENGATE_CONFIG: '',
      PORT: '',
      GENGATE_PORT: '',
      ...env,
    },
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

async function listening(): Promise<Server> {
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => resolve(server));
  });
}

async function closedPort(): Promise<number> {
  const server = await listening();
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** A usage mistake: its own line first, then the usage text; nothing on stdout. */
function expectUsageError(outcome: Outcome, line: RegExp): void {
  expect(outcome.code).toBe(2);
  expect(outcome.stdout).toBe('');
  const [first, blank, usage] = outcome.stderr.split('\n');
  expect(first).toMatch(line);
  expect(blank).toBe('');
  expect(usage).toBe('usage:');
}

/** A failure: exactly one line on stderr, starting with "gengate: ", no stack trace. */
function expectOneLine(outcome: Outcome, code: number, line: RegExp): void {
  expect(outcome.code, outcome.stderr).toBe(code);
  expect(outcome.stderr.endsWith('\n')).toBe(true);
  const lines = outcome.stderr.trimEnd().split('\n');
  expect(lines, outcome.stderr).toHaveLength(1);
  expect(lines[0]).toMatch(/^gengate: /);
  expect(lines[0]).toMatch(line);
}

describe('gengate command-line mistakes', () => {
  it.concurrent('finding 14: --models "" is refused, and no key is created', async () => {
    const env = { GENGATE_DATABASE_URL: `sqlite:${join(mkdtempSync(join(dir, 'models-')), 'gengate.db')}` };
    expectUsageError(await gengate(['keys', 'create', '--name', 'x', '--models', ''], env), /^gengate: --models lists no model/);
    expectUsageError(await gengate(['keys', 'create', '--models', ' , '], env), /^gengate: --models lists no model/);
    const list = await gengate(['keys', 'list', '--json'], env);
    expect(list.code).toBe(0);
    expect(JSON.parse(list.stdout)).toEqual([]);
  }, 120_000);

  it.concurrent('finding 14: --expires in the past is refused', async () => {
    expectUsageError(await gengate(['keys', 'create', '--expires', '2020-01-01']), /^gengate: --expires 2020-01-01T00:00:00\.000Z is not in the future/);
    expectUsageError(await gengate(['keys', 'create', '--expires', 'someday']), /^gengate: --expires "someday" is not a date/);
  }, 120_000);

  it.concurrent('finding 14: a name with a tab or newline is refused', async () => {
    expectUsageError(await gengate(['keys', 'create', '--name', 'two\tparts']), /^gengate: --name must be one line of printable text/);
    expectUsageError(await gengate(['keys', 'create', '--name', 'two\nlines']), /^gengate: --name must be one line of printable text/);
  }, 120_000);

  it.concurrent('finding 14: the usage text marks --name and the other key options optional', async () => {
    const help = await gengate(['help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('gengate keys create [--name NAME] [--models PATTERNS] [--expires DATE] [--account EMAIL] [--admin]');
    expect(help.stdout).toContain('Options in [brackets] are optional');
  }, 120_000);

  it.concurrent('finding 14: an unknown command, action or flag is one line, then the usage, exit 2', async () => {
    expectUsageError(await gengate(['serve']), /^gengate: unknown command "serve"$/);
    expectUsageError(await gengate(['keys', 'delete', 'x']), /^gengate: unknown keys action "delete"/);
    expectUsageError(await gengate(['keys', 'create', '--nmae', 'x']), /^gengate: unknown option --nmae for "gengate keys create"$/);
    expectUsageError(await gengate(['start', '--port', '9000']), /^gengate: unknown option --port for "gengate start"$/);
  }, 120_000);
});

describe('gengate keys list', () => {
  it('finding 14: prints a header row and one aligned row per key', async () => {
    const home = mkdtempSync(join(dir, 'list-'));
    const env = { GENGATE_DATABASE_URL: `sqlite:${join(home, 'gengate.db')}` };
    expect((await gengate(['keys', 'create', '--name', 'first app', '--models', 'textmodel-b-*'], env)).code).toBe(0);
    expect((await gengate(['keys', 'create', '--name', 'b'], env)).code).toBe(0);
    const { code, stdout } = await gengate(['keys', 'list'], env);
    expect(code).toBe(0);
    const lines = stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[0].split(/\s+/)).toEqual(['ID', 'HINT', 'STATE', 'ACCOUNT', 'ADMIN', 'NAME', 'MODELS', 'EXPIRES', 'CREATED']);
    const nameAt = lines[0].indexOf('NAME');
    expect(lines[1].slice(nameAt)).toMatch(/^first app +textmodel-b-\* +never /);
    expect(lines[2].slice(nameAt)).toMatch(/^b +any +never /);
  }, 120_000);
});

describe('gengate start-up failures', () => {
  it('finding 14: a port in use is one line and exit 1; the stack trace only with GENGATE_LOG_LEVEL=debug', async () => {
    const taken = await listening();
    const { port } = taken.address() as { port: number };
    const env = { GENGATE_DATABASE_URL: `sqlite:${join(mkdtempSync(join(dir, 'in-use-')), 'gengate.db')}` };
    try {
      const outcome = await gengate(['start'], { ...env, GENGATE_PORT: String(port) });
      expectOneLine(outcome, 1, new RegExp(`^gengate: cannot listen on 127\\.0\\.0\\.1:${port}: the port is already in use`));
      expect(outcome.stdout).not.toContain('gengate listening');
      // No first key was made (and lost) by the start that failed: the next start prints one.
      expect(JSON.parse((await gengate(['keys', 'list', '--json'], env)).stdout)).toEqual([]);
      const debug = await gengate(['start'], { ...env, GENGATE_PORT: String(port), GENGATE_LOG_LEVEL: 'debug' });
      expect(debug.code).toBe(1);
      expect(debug.stderr).toMatch(/EADDRINUSE[\s\S]*\n\s+at /);
    } finally {
      taken.close();
    }
  }, 90_000);

  it.concurrent('finding 14: an invalid port is one line and exit 2', async () => {
    expectOneLine(await gengate(['start'], { PORT: 'abc' }), 2, /^gengate: PORT="abc" is not a port/);
    expectOneLine(await gengate(['start'], { GENGATE_PORT: '70000' }), 2, /^gengate: GENGATE_PORT="70000" is not a port/);
  }, 120_000);

  it.concurrent('finding 14: an unreachable PostgreSQL is one line and exit 1, with the password hidden', async () => {
    const port = await closedPort();
    const outcome = await gengate(['start'], { GENGATE_DATABASE_URL: `postgres://gengate:hunter2@127.0.0.1:${port}/gengate` });
    expectOneLine(
      outcome,
      1,
      new RegExp(`^gengate: cannot reach PostgreSQL at postgres://gengate:\\*\\*\\*@127\\.0\\.0\\.1:${port}/gengate \\(ECONNREFUSED\\)`),
    );
    expect(outcome.stderr).not.toContain('hunter2');
  }, 120_000);

  it.concurrent('finding 14: an unsupported database URL is one line and exit 2', async () => {
    expectOneLine(
      await gengate(['keys', 'list'], { GENGATE_DATABASE_URL: 'mysql://root@127.0.0.1/gengate' }),
      2,
      /^gengate: unsupported database URL "mysql:\/\/root@127\.0\.0\.1\/gengate": use sqlite:<path> or postgres:/,
    );
  }, 120_000);

  it.concurrent('finding 14: a configuration file that is not YAML is one line and exit 2', async () => {
    const path = join(dir, 'broken.yaml');
    writeFileSync(path, 'server:\n  port: [8080\nchannels: }\n');
    expectOneLine(
      await gengate(['start', '--config', path]),
      2,
      new RegExp(`^gengate: ${path.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}: .*line \\d+, column \\d+$`),
    );
    expectOneLine(await gengate(['start', '--config', join(dir, 'missing.yaml')]), 2, /^gengate: configuration file not found: /);
  }, 120_000);
});

describe('gengate migrate', () => {
  it('finding 14: on a fresh PostgreSQL it reports the migrations it applied, then that nothing is left', async () => {
    const database = await createTempDatabase();
    try {
      const first = await gengate(['migrate'], { GENGATE_DATABASE_URL: database.url });
      expect(first.code, first.stderr).toBe(0);
      expect(first.stdout.trim()).toBe(
        'applied 24 migrations (postgres): 001-initial, 002-usage-units, 003-channels, 004-unique-request-id, 005-tasks, 006-task-deletion, ' +
          '007-accounts, 008-usage-rollups, 009-store-revisions, 010-model-overrides, 011-usage-dimension-rollups, 012-webhook-fairness, 013-key-revisions, 014-login-failure-devices, 015-media-files, ' +
          '016-stored-responses, 017-background-responses, 018-stored-response-items, 019-money-nusd, 021-usage-refusal, 022-limit-rules, 023-error-types, 024-unpriced-usage, 025-stored-response-totals',
      );
      const again = await gengate(['migrate'], { GENGATE_DATABASE_URL: database.url });
      expect(again.code).toBe(0);
      expect(again.stdout.trim()).toBe('database schema is up to date (postgres); nothing to apply');
    } finally {
      await database.drop();
    }
  }, 90_000);
});
