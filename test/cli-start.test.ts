/**
 * `gengate start` as a user runs it: first start creates and prints a key with a curl example,
 * the key works, SIGTERM stops the process cleanly, and a restart keeps the key and the data.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from './helpers/free-port.js';

const dir = mkdtempSync(join(tmpdir(), 'gengate-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function run(args: string[], env: Record<string, string>): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', 'src/cli.ts', ...args], {
    cwd: process.cwd(),
    env: { ...process.env, GENGATE_DATABASE_URL: `sqlite:${join(dir, 'data', 'gengate.db')}`, GENGATE_LOG_LEVEL: 'warn', GENGATE_DRAIN_DELAY_MS: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

async function startAndWait(port: number): Promise<{ child: ChildProcess; output: () => string }> {
  const child = run(['start'], { GENGATE_PORT: String(port) });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const deadline = Date.now() + 30_000;
  while (!output.includes('gengate listening on')) {
    if (Date.now() > deadline || child.exitCode !== null) throw new Error(`gateway did not start:\n${output}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return { child, output: () => output };
}

async function startAndWaitWith(env: Record<string, string>): Promise<{ child: ChildProcess; output: () => string }> {
  const port = await freePort();
  const child = run(['start'], { ...env, GENGATE_PORT: String(port) });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  const deadline = Date.now() + 30_000;
  while (!output.includes('Dashboard:')) {
    if (Date.now() > deadline || child.exitCode !== null) throw new Error(`gateway did not start:\n${output}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return { child, output: () => output };
}

async function stop(child: ChildProcess): Promise<number | null> {
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  child.kill('SIGTERM');
  return exited;
}

describe('gengate start', () => {
  it('creates a first key once, serves with it, stops cleanly, and keeps it across restarts', async () => {
    const port = await freePort();
    const first = await startAndWait(port);
    const key = /\b(gg-[A-Za-z0-9]{42})\b/.exec(first.output())?.[1];
    expect(key).toBeDefined();
    expect(first.output()).toContain(`curl http://127.0.0.1:${port}/v1/chat/completions`);

    const chat = async () =>
      fetch(`http://127.0.0.1:${port}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'textmodel-b-4o-mini', messages: [{ role: 'user', content: 'Hello!' }] }),
      });
    const answer = await chat();
    expect(answer.status).toBe(200);
    expect(answer.headers.get('x-gengate-simulated')).toBe('true');
    expect(await stop(first.child)).toBe(0);

    const second = await startAndWait(port);
    expect(second.output()).not.toMatch(/gg-[A-Za-z0-9]{42}/);
    expect((await chat()).status).toBe(200);
    expect(await stop(second.child)).toBe(0);

    // Both requests were recorded: each shutdown flushed the usage queue.
    const db = new Database(join(dir, 'data', 'gengate.db'), { readonly: true });
    const rows = db.prepare('select model, outcome, output_tokens from usage_records').all() as Array<{
      model: string;
      outcome: string;
      output_tokens: number;
    }>;
    db.close();
    expect(rows).toHaveLength(2);
    expect(rows.every((r) => r.model === 'textmodel-b-4o-mini' && r.outcome === 'ok' && r.output_tokens > 0)).toBe(true);

    const list = run(['keys', 'list'], {});
    let listed = '';
    list.stdout!.on('data', (chunk) => (listed += chunk));
    await new Promise((resolve) => list.once('exit', resolve));
    expect(listed).toContain('first key');
    expect(listed).toContain('active');
  }, 90_000);

  it('keys create prints a key restricted as asked, and revoke takes it away', async () => {
    const create = run(['keys', 'create', '--name', 'ci', '--models', 'textmodel-b-*', '--expires', '2999-01-01'], {});
    let out = '';
    create.stdout!.on('data', (chunk) => (out += chunk));
    expect(await new Promise((resolve) => create.once('exit', resolve))).toBe(0);
    expect(out).toContain('models:  textmodel-b-*');
    expect(out).toContain('2999-01-01');
    const id = /created key (\w+)/.exec(out)![1];
    const revoke = run(['keys', 'revoke', id], {});
    let revoked = '';
    revoke.stdout!.on('data', (chunk) => (revoked += chunk));
    expect(await new Promise((resolve) => revoke.once('exit', resolve))).toBe(0);
    expect(revoked).toContain(`revoked ${id}`);
  }, 60_000);

  it('prints a one-time link for the first admin until one has a password; `accounts create` prints one for a new account', async () => {
    const home = mkdtempSync(join(dir, 'admin-'));
    const env = { GENGATE_DATABASE_URL: `sqlite:${join(home, 'gengate.db')}` };
    const port = await freePort();
    const child = run(['start'], { ...env, GENGATE_PORT: String(port) });
    let output = '';
    child.stdout!.on('data', (chunk) => (output += chunk));
    let token: string | undefined;
    try {
      const deadline = Date.now() + 30_000;
      const tokenIn = (text: string) => /\/dashboard\/setup#token=([A-Za-z0-9_-]+)/.exec(text)?.[1];
      for (token = tokenIn(output); token === undefined; token = tokenIn(output)) {
        if (Date.now() > deadline || child.exitCode !== null) throw new Error(`no admin link:\n${output}`);
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(output).toContain(`http://127.0.0.1:${port}/dashboard/setup#token=`);
      const set = await fetch(`http://127.0.0.1:${port}/admin/v1/setup`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ token, password: 'first admin password', email: 'root@example.com' }),
      });
      expect(set.status).toBe(200);
    } finally {
      await stop(child);
    }
    const again = await startAndWaitWith(env);
    try {
      expect(again.output()).not.toContain('/dashboard/setup#token=');
      expect(again.output()).toContain('/dashboard');
    } finally {
      await stop(again.child);
    }
    const created = run(['accounts', 'create', '--email', 'Dev@Example.com', '--role', 'member'], env);
    let printed = '';
    created.stdout!.on('data', (chunk) => (printed += chunk));
    const code = await new Promise<number | null>((resolve) => created.once('exit', resolve));
    expect(code).toBe(0);
    expect(printed).toContain('created member account dev@example.com');
    expect(printed).toMatch(/\/dashboard\/setup#token=[A-Za-z0-9_-]{40,}/);
  }, 90_000);

  it('finding 15: listens on PORT, prints the banner before any log line, logs JSON off a terminal (pretty when asked), answers /healthz', async () => {
    const home = mkdtempSync(join(dir, 'port-'));
    for (const format of ['', 'pretty']) {
      const port = await freePort();
      const child = run(['start'], {
        GENGATE_DATABASE_URL: `sqlite:${join(home, 'gengate.db')}`,
        GENGATE_PORT: '',
        PORT: String(port),
        GENGATE_LOG_LEVEL: 'info',
        GENGATE_LOG_FORMAT: format,
      });
      let stdout = '';
      child.stdout!.on('data', (chunk) => (stdout += chunk));
      try {
        const deadline = Date.now() + 30_000;
        while (!stdout.includes('gengate listening on')) {
          if (Date.now() > deadline || child.exitCode !== null) throw new Error(`gateway did not start:\n${stdout}`);
          await new Promise((r) => setTimeout(r, 100));
        }
        const health = await fetch(`http://127.0.0.1:${port}/healthz`);
        expect(health.status).toBe(200);
        expect(await health.json()).toEqual({ status: 'ok' });
        while (!stdout.includes('/healthz')) {
          if (Date.now() > deadline) throw new Error(`no access log line:\n${stdout}`);
          await new Promise((r) => setTimeout(r, 50));
        }
      } finally {
        await stop(child);
      }
      const lines = stdout.split('\n').filter(Boolean);
      expect(lines[0]).toBe(`gengate listening on http://127.0.0.1:${port}`);
      const access = lines.find((line) => line.includes('/healthz'))!;
      if (format === 'pretty') {
        expect(access).toMatch(/^\d\d:\d\d:\d\d\.\d{3} INFO {2}request .*method=GET url=\/healthz status=200/);
      } else {
        expect(JSON.parse(access)).toMatchObject({ level: 30, msg: 'request', method: 'GET', url: '/healthz', status: 200 });
      }
    }
  }, 90_000);
});
