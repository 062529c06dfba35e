/**
 * The rules in force follow the store: loaded at start, reloaded when another process changes
 * them (seen through the store's invalidation bus polling `store_revisions`), with rows no check
 * would pass left out; `empty` says when no rule exists.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LimitRulesRepository } from '../store/limit-rules-repository.js';
import { type OpenedStore, openStore } from '../store/open-store.js';
import { StoreInvalidationBus } from '../store/store-invalidation-bus.js';
import { StoredRuleSource } from './stored-rule-source.js';

describe('StoredRuleSource', () => {
  const dir = mkdtempSync(join(tmpdir(), 'gengate-rules-'));
  const url = `sqlite:${join(dir, 'shared.db')}`;
  // Two connections to one file stand for two replicas.
  let writer: OpenedStore;
  let replica: OpenedStore;
  beforeAll(async () => {
    writer = await openStore(url);
    replica = await openStore(url);
  });
  afterAll(async () => {
    await writer.close();
    await replica.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("starts empty, then holds another replica's new, changed and removed rules after a bus poll", async () => {
    const bus = new StoreInvalidationBus(replica.db, { pollMs: 60_000 });
    await bus.start();
    const source = new StoredRuleSource(new LimitRulesRepository(replica.db), bus);
    await source.start();
    expect(source.empty).toBe(true);

    const written = new LimitRulesRepository(writer.db);
    const rule = await written.createLimit({ scope: 'account', subject: 'acc_1', model: null, kind: 'tokens_per_minute', limit: 1000 }, 1);
    const budget = await written.createBudget({ scope: 'key', subject: 'key_1', period: 'day', timeZone: 'UTC', limitNusd: 10, softNusd: null }, 1);
    expect(source.empty).toBe(true);
    await bus.poll();
    await source.reload(); // waits for the reload the poll started
    expect(source.empty).toBe(false);
    expect(source.limits()).toMatchObject([{ id: rule.id, kind: 'tokens_per_minute', limit: 1000, model: null }]);
    expect(source.budgets()).toMatchObject([{ id: budget.id, limitNusd: 10 }]);

    await written.changeLimit(rule.id, 2000, 2);
    await written.removeBudget(budget.id);
    // A row written by hand with a kind no check allows is not in force.
    await writer.db
      .insertInto('limit_rules')
      .values({ id: 'lim_bad', scope: 'key', subject: 'key_1', model: '', kind: 'requests_per_hour', limit_value: 5, created_at: 3, updated_at: 3 })
      .execute();
    await bus.poll();
    await source.reload();
    expect(source.limits().map((r) => [r.id, r.limit])).toEqual([[rule.id, 2000]]);
    expect(source.budgets()).toEqual([]);

    await written.removeLimit(rule.id);
    await writer.db.deleteFrom('limit_rules').execute();
    await bus.poll();
    await source.reload();
    expect(source.empty).toBe(true);
    source.stop();
    await bus.close();
  });

  it('keeps the rules it holds when a reload fails', async () => {
    const bus = new StoreInvalidationBus(replica.db, { pollMs: 60_000 });
    let fail = false;
    const repository = new LimitRulesRepository(replica.db);
    const flaky = {
      listLimits: () => (fail ? Promise.reject(new Error('database gone')) : repository.listLimits()),
      listBudgets: () => repository.listBudgets(),
    };
    await new LimitRulesRepository(writer.db).createLimit({ scope: 'model', subject: '', model: 'x-*', kind: 'concurrent_requests', limit: 2 }, 1);
    const source = new StoredRuleSource(flaky, bus);
    await source.start();
    expect(source.limits()).toHaveLength(1);
    fail = true;
    await expect(source.reload()).rejects.toThrow('database gone');
    expect(source.limits()).toHaveLength(1);
    source.stop();
  });
});
