/**
 * `gengate keys create --account EMAIL [--admin]` and `gengate keys list` with accounts: the key
 * belongs to the account, stays within its model restriction, and only an admin account (or no
 * account) may hold an admin key.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { newAccount } from '../src/admin/setup-links.js';
import { AccountsRepository } from '../src/store/accounts-repository.js';
import { openStore } from '../src/store/open-store.js';
import { type CliRun, runCli } from './helpers/run-cli.js';

const dir = mkdtempSync(join(tmpdir(), 'gengate-cli-keys-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const databaseUrl = `sqlite:${join(dir, 'gengate.db')}`;

function gengate(args: string[]): Promise<CliRun> {
  return runCli(databaseUrl, args);
}

describe('gengate keys with accounts', () => {
  it('creates keys for an account (admin keys only for an admin account) and lists them with it', async () => {
    const store = await openStore(databaseUrl);
    const accounts = new AccountsRepository(store.db);
    const ops = newAccount('ops@example.com', 'admin');
    const dev = { ...newAccount('dev@example.com', 'member'), models: ['textmodel-b-*'] };
    await accounts.insert(ops);
    await accounts.insert(dev);
    await store.close();

    const admin = await gengate(['keys', 'create', '--name', 'ci', '--account', 'OPS@example.com', '--admin']);
    expect(admin.code, admin.stderr).toBe(0);
    expect(admin.stdout).toContain('account: ops@example.com, may call the admin API');
    const refused = await gengate(['keys', 'create', '--account', 'dev@example.com', '--admin']);
    expect(refused.code).toBe(1);
    expect(refused.stderr.trim()).toBe('gengate: --admin: dev@example.com is a member; only an admin account may hold an admin key');
    const outside = await gengate(['keys', 'create', '--account', 'dev@example.com', '--models', 'textmodel-a-*']);
    expect(outside.code).toBe(1);
    expect(outside.stderr).toMatch(/may not use textmodel-a-\*/);
    const unknown = await gengate(['keys', 'create', '--account', 'nobody@example.com']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/^gengate: no account nobody@example.com/);
    const inherits = await gengate(['keys', 'create', '--name', 'app', '--account', 'dev@example.com']);
    expect(inherits.code, inherits.stderr).toBe(0);
    expect(inherits.stdout).toContain('models:  textmodel-b-*');

    const listed = await gengate(['keys', 'list', '--json']);
    expect(listed.code).toBe(0);
    const keys = JSON.parse(listed.stdout) as Array<{ name: string; account: string | null; admin: boolean; models: string[] | null }>;
    expect(keys.map(({ name, account, admin, models }) => ({ name, account, admin, models }))).toEqual([
      { name: 'ci', account: 'ops@example.com', admin: true, models: null },
      { name: 'app', account: 'dev@example.com', admin: false, models: ['textmodel-b-*'] },
    ]);
    const table = await gengate(['keys', 'list']);
    expect(table.stdout.split('\n')[1]).toMatch(/ active +ops@example\.com +yes +ci /);

    const check = await openStore(databaseUrl);
    const audit = await check.db.selectFrom('audit_log').select(['actor_kind', 'action', 'details']).orderBy('id').execute();
    await check.close();
    expect(audit.map((entry) => [entry.actor_kind, entry.action])).toEqual([
      ['cli', 'key.create'],
      ['cli', 'key.create'],
    ]);
  }, 90_000);
});
