/**
 * The limit and budget rules on SQLite and PostgreSQL: create, list by subject, change, remove;
 * a model-less rule is read back as null; a second rule for the same thing and a rule past the
 * cap are refused with nothing written; every write moves the `limits` revision.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTempDatabase, type TempDatabase } from '../../test/helpers/postgres.js';
import { DuplicateRuleError, LimitRulesRepository, RuleCountError } from './limit-rules-repository.js';
import { type OpenedStore, openStore } from './open-store.js';
import { readRevision } from './store-revisions.js';

const backends: Array<[string, () => Promise<{ url: string; drop?: () => Promise<void> }>]> = [
  ['sqlite', async () => ({ url: 'sqlite::memory:' })],
  ['postgres', async () => createTempDatabase() as Promise<TempDatabase>],
];

describe.each(backends)('LimitRulesRepository on %s', (_name, database) => {
  let store: OpenedStore;
  let drop: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    const opened = await database();
    drop = opened.drop;
    store = await openStore(opened.url);
  });
  afterAll(async () => {
    await store.close();
    await drop?.();
  });

  it('creates, lists, changes and removes limit rules, bumping the limits revision each time', async () => {
    const rules = new LimitRulesRepository(store.db);
    const before = await readRevision(store.db, 'limits');
    const plain = await rules.createLimit({ scope: 'key', subject: 'key_a', model: null, kind: 'requests_per_minute', limit: 60 }, 1_000);
    const override = await rules.createLimit({ scope: 'key', subject: 'key_a', model: 'textmodel-a-*', kind: 'requests_per_minute', limit: 10 }, 2_000);
    await rules.createLimit({ scope: 'model', subject: '', model: 'imagemodel-*', kind: 'concurrent_requests', limit: 3 }, 3_000);
    expect(await readRevision(store.db, 'limits')).toBe(before + 3);

    const forKey = await rules.listLimits({ scope: 'key', subject: 'key_a' });
    expect(forKey.map((rule) => [rule.id, rule.model, rule.limit])).toEqual([
      [plain.id, null, 60],
      [override.id, 'textmodel-a-*', 10],
    ]);
    await expect(rules.createLimit({ scope: 'key', subject: 'key_a', model: null, kind: 'requests_per_minute', limit: 5 }, 4_000)).rejects.toBeInstanceOf(
      DuplicateRuleError,
    );
    expect(await rules.listLimits()).toHaveLength(3);

    const changed = await rules.changeLimit(plain.id, 120, 5_000);
    expect(changed).toMatchObject({ limit: 120, createdAt: 1_000, updatedAt: 5_000 });
    expect(await rules.changeLimit('lim_none', 1, 5_000)).toBeUndefined();
    expect((await rules.removeLimit(override.id))?.id).toBe(override.id);
    expect(await rules.removeLimit(override.id)).toBeUndefined();
    expect(await rules.findLimit(override.id)).toBeUndefined();
  });

  it('keeps budgets in nUSD, one per subject and period, and refuses a soft threshold the check rejects', async () => {
    const rules = new LimitRulesRepository(store.db);
    const big = 8_000_000_000_000_000; // 8 million USD in nUSD: past 32 bits, inside a safe integer
    const budget = await rules.createBudget(
      { scope: 'account', subject: 'acc_1', period: 'month', timeZone: 'Europe/Paris', limitNusd: big, softNusd: null },
      1,
    );
    expect(await rules.findBudget(budget.id)).toMatchObject({ limitNusd: big, softNusd: null, timeZone: 'Europe/Paris', period: 'month' });
    const daily = await rules.createBudget({ scope: 'account', subject: 'acc_1', period: 'day', timeZone: 'UTC', limitNusd: 5, softNusd: 1 }, 2);
    await expect(rules.changeBudget(daily.id, { period: 'month' }, 3)).rejects.toBeInstanceOf(DuplicateRuleError);
    const refuse = (next: { softNusd: number | null; limitNusd: number }) => {
      if (next.softNusd !== null && next.softNusd >= next.limitNusd) throw new RangeError('soft');
    };
    await expect(rules.changeBudget(daily.id, { limitNusd: 1 }, 3, refuse)).rejects.toThrow('soft');
    expect(await rules.findBudget(daily.id)).toMatchObject({ limitNusd: 5, softNusd: 1, period: 'day' });
    expect(await rules.changeBudget(daily.id, { period: 'week', softNusd: null }, 4, refuse)).toMatchObject({ period: 'week', softNusd: null, updatedAt: 4 });
    expect((await rules.listBudgets({ subject: 'acc_1' })).map((rule) => rule.id)).toEqual([budget.id, daily.id]);
    expect((await rules.removeBudget(daily.id))?.id).toBe(daily.id);
  });

  it('refuses a rule past the cap, counting limits and budgets together', async () => {
    const existing = (await new LimitRulesRepository(store.db).listLimits()).length + (await new LimitRulesRepository(store.db).listBudgets()).length;
    const capped = new LimitRulesRepository(store.db, existing + 1);
    await capped.createBudget({ scope: 'key', subject: 'key_cap', period: 'lifetime', timeZone: 'UTC', limitNusd: 1, softNusd: null }, 1);
    await expect(capped.createLimit({ scope: 'key', subject: 'key_cap', model: null, kind: 'unfinished_tasks', limit: 1 }, 2)).rejects.toBeInstanceOf(
      RuleCountError,
    );
    expect(await capped.listLimits({ subject: 'key_cap' })).toEqual([]);
  });
});
