/**
 * `gengate limits` and `gengate budgets`: set creates a rule or changes the one there, list shows
 * it, clear removes it; a bad value is one line naming the option (exit 1), the rules are the
 * admin API's (same store), and each change is in the audit log as the command line's.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { newAccount } from '../src/admin/setup-links.js';
import { AccountsRepository } from '../src/store/accounts-repository.js';
import { AuditRepository } from '../src/store/audit-repository.js';
import { LimitRulesRepository } from '../src/store/limit-rules-repository.js';
import { openStore } from '../src/store/open-store.js';
import { type CliRun, runCli } from './helpers/run-cli.js';

const dir = mkdtempSync(join(tmpdir(), 'gengate-cli-limits-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const databaseUrl = `sqlite:${join(dir, 'gengate.db')}`;

function gengate(args: string[], env: Record<string, string> = {}): Promise<CliRun> {
  return runCli(databaseUrl, args, env);
}

describe('gengate limits and budgets', () => {
  it('sets, changes, lists and clears rules on an account and a model, and refuses bad values naming the option', async () => {
    const store = await openStore(databaseUrl);
    const team = newAccount('team@example.com', 'member');
    await new AccountsRepository(store.db).insert(team);
    await store.close();

    const created = await gengate(['limits', 'set', '--account', 'team@example.com', '--kind', 'requests_per_minute', '--limit', '60']);
    expect(created.code, created.stderr).toBe(0);
    expect(created.stdout).toMatch(/^created lim_\S+: account \S+ requests_per_minute 60/);
    const changed = await gengate(['limits', 'set', '--account', team.id, '--kind', 'requests_per_minute', '--limit', '90']);
    expect(changed.stdout).toMatch(/^changed lim_/);
    expect((await gengate(['limits', 'set', '--model', 'imagemodel-*', '--kind', 'concurrent_requests', '--limit', '4'])).code).toBe(0);
    const badKind = await gengate(['limits', 'set', '--model', 'x', '--kind', 'requests_per_hour', '--limit', '4']);
    expect(badKind.code).toBe(1);
    expect(badKind.stderr.trim()).toMatch(/^gengate: --kind: kind must be one of requests_per_minute/);
    const noAccount = await gengate(['limits', 'set', '--account', 'nobody@example.com', '--kind', 'unfinished_tasks', '--limit', '1']);
    expect(noAccount.code).toBe(1);
    expect(noAccount.stderr.trim()).toBe('gengate: no account nobody@example.com');

    const budget = await gengate([
      'budgets',
      'set',
      '--account',
      'team@example.com',
      '--period',
      'month',
      '--limit',
      '25',
      '--soft',
      '20.5',
      '--time-zone',
      'Asia/Tokyo',
    ]);
    expect(budget.code, budget.stderr).toBe(0);
    expect(budget.stdout).toMatch(/^created bud_\S+: account \S+ \$25\.00 per month \(Asia\/Tokyo\), warns past \$20\.50/);
    const softAbove = await gengate(['budgets', 'set', '--account', 'team@example.com', '--period', 'month', '--limit', '10', '--soft', '12']);
    expect(softAbove.code).toBe(1);
    expect(softAbove.stderr).toContain('--soft: softUsd must be less than limitUsd');

    const reopened = await openStore(databaseUrl);
    const rules = new LimitRulesRepository(reopened.db);
    const limits = await rules.listLimits();
    expect(limits.map((rule) => [rule.scope, rule.subject, rule.model, rule.kind, rule.limit])).toEqual([
      ['account', team.id, null, 'requests_per_minute', 90],
      ['model', '', 'imagemodel-*', 'concurrent_requests', 4],
    ]);
    const [stored] = await rules.listBudgets();
    expect(stored).toMatchObject({ limitNusd: 25_000_000_000, softNusd: 20_500_000_000, timeZone: 'Asia/Tokyo' });
    const audit = await new AuditRepository(reopened.db).list({}, 50);
    await reopened.close();
    expect(audit.map((entry) => [entry.action, entry.actor_label])).toEqual(
      expect.arrayContaining([
        ['limit.create', 'command line'],
        ['limit.change', 'command line'],
        ['budget.create', 'command line'],
      ]),
    );

    const listed = await gengate(['limits', 'list', '--account', 'team@example.com']);
    expect(listed.stdout).toContain(limits[0].id);
    expect(listed.stdout).not.toContain(limits[1].id);
    const budgets = JSON.parse((await gengate(['budgets', 'list', '--json'])).stdout);
    expect(budgets.map((b: { id: string }) => b.id)).toEqual([stored.id]);

    expect((await gengate(['limits', 'clear', limits[0].id])).stdout.trim()).toBe(`cleared ${limits[0].id}`);
    const again = await gengate(['limits', 'clear', limits[0].id]);
    expect(again.code).toBe(1);
    expect((await gengate(['budgets', 'clear', stored.id])).code).toBe(0);
    expect((await gengate(['budgets', 'list'])).stdout.trim()).toBe('no budgets: set one with `gengate budgets set`');
  }, 120_000);

  it('rebuilds the shared spend counters from the ledger when Redis is set, and says there are none without it', async () => {
    const store = await openStore(databaseUrl);
    const team = newAccount('rebuild@example.com', 'member');
    await new AccountsRepository(store.db).insert(team);
    await store.close();
    expect((await gengate(['budgets', 'set', '--account', team.id, '--period', 'day', '--limit', '3'])).code).toBe(0);

    const local = await gengate(['budgets', 'rebuild']);
    expect(local.code).toBe(0);
    expect(local.stdout).toMatch(/^no shared counters/);
    const shared = await gengate(['budgets', 'rebuild'], { GENGATE_REDIS_URL: 'redis://127.0.0.1:6379/15' });
    expect(shared.code, shared.stderr).toBe(0);
    expect(shared.stdout).toContain(`account ${team.id}  day  spent 0.000000000 of 3.000000000 USD`);
    expect(shared.stdout).toContain('rebuilt 1 budget from the ledger');
  }, 60_000);
});
