/**
 * The limit and budget rules (`limit_rules`, `budget_rules`): create, change, remove, list. Every
 * write bumps the `limits` revision in its own transaction, so every process reloads its rules
 * within a poll; the bump comes first, and its row lock serialises rule writes, so the duplicate
 * check and the cap on the number of rules hold under concurrent writers. Values arrive checked
 * (`limits/rule-validation.ts`); the store keeps scopes, kinds and periods as text.
 */
import type { Kysely, Selectable, Transaction } from 'kysely';
import { prefixedId } from '../core/ids.js';
import type { BudgetRulesTable, Database, LimitRulesTable } from './schema.js';
import { bumpRevision } from './store-revisions.js';

export interface StoredLimitRule {
  id: string;
  scope: string;
  subject: string;
  /** null: the rule has no model pattern. */
  model: string | null;
  kind: string;
  limit: number;
  createdAt: number;
  updatedAt: number;
}

export interface StoredBudgetRule {
  id: string;
  scope: string;
  subject: string;
  period: string;
  timeZone: string;
  limitNusd: number;
  softNusd: number | null;
  createdAt: number;
  updatedAt: number;
}

export type NewLimitRule = Omit<StoredLimitRule, 'id' | 'createdAt' | 'updatedAt'>;
export type NewBudgetRule = Omit<StoredBudgetRule, 'id' | 'createdAt' | 'updatedAt'>;
export type BudgetChange = Partial<Pick<StoredBudgetRule, 'period' | 'timeZone' | 'limitNusd' | 'softNusd'>>;

/** A rule for the same thing exists already (its id says which). */
export class DuplicateRuleError extends Error {
  constructor(readonly existingId: string) {
    super(`a rule for the same thing exists: ${existingId}`);
    this.name = 'DuplicateRuleError';
  }
}

/** The store holds `max` rules (limits and budgets together) already. */
export class RuleCountError extends Error {
  constructor(readonly max: number) {
    super(`at most ${max} limit and budget rules may exist`);
    this.name = 'RuleCountError';
  }
}

export interface RuleFilter {
  scope?: string;
  subject?: string;
}

const limitFromRow = (row: Selectable<LimitRulesTable>): StoredLimitRule => ({
  id: row.id,
  scope: row.scope,
  subject: row.subject,
  model: row.model === '' ? null : row.model,
  kind: row.kind,
  limit: Number(row.limit_value),
  createdAt: Number(row.created_at),
  updatedAt: Number(row.updated_at),
});

const budgetFromRow = (row: Selectable<BudgetRulesTable>): StoredBudgetRule => ({
  id: row.id,
  scope: row.scope,
  subject: row.subject,
  period: row.period,
  timeZone: row.time_zone,
  limitNusd: Number(row.limit_nusd),
  softNusd: row.soft_nusd === null ? null : Number(row.soft_nusd),
  createdAt: Number(row.created_at),
  updatedAt: Number(row.updated_at),
});

async function countRules(trx: Transaction<Database>): Promise<number> {
  const limits = await trx
    .selectFrom('limit_rules')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  const budgets = await trx
    .selectFrom('budget_rules')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(limits.n) + Number(budgets.n);
}

export class LimitRulesRepository {
  constructor(
    private readonly db: Kysely<Database>,
    /** The most rules (limits and budgets together) the store accepts. */
    private readonly maxRules = Number.POSITIVE_INFINITY,
  ) {}

  async listLimits(filter: RuleFilter = {}): Promise<StoredLimitRule[]> {
    let query = this.db.selectFrom('limit_rules').selectAll();
    if (filter.scope !== undefined) query = query.where('scope', '=', filter.scope);
    if (filter.subject !== undefined) query = query.where('subject', '=', filter.subject);
    const rows = await query.orderBy('created_at').orderBy('id').execute();
    return rows.map(limitFromRow);
  }

  async listBudgets(filter: RuleFilter = {}): Promise<StoredBudgetRule[]> {
    let query = this.db.selectFrom('budget_rules').selectAll();
    if (filter.scope !== undefined) query = query.where('scope', '=', filter.scope);
    if (filter.subject !== undefined) query = query.where('subject', '=', filter.subject);
    const rows = await query.orderBy('created_at').orderBy('id').execute();
    return rows.map(budgetFromRow);
  }

  async findLimit(id: string): Promise<StoredLimitRule | undefined> {
    const row = await this.db.selectFrom('limit_rules').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? limitFromRow(row) : undefined;
  }

  async findBudget(id: string): Promise<StoredBudgetRule | undefined> {
    const row = await this.db.selectFrom('budget_rules').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? budgetFromRow(row) : undefined;
  }

  /** Throws `DuplicateRuleError` when the subject has a rule of this kind for this model pattern, `RuleCountError` past the cap. */
  async createLimit(rule: NewLimitRule, now: number): Promise<StoredLimitRule> {
    const stored: StoredLimitRule = { ...rule, id: prefixedId('lim_'), createdAt: now, updatedAt: now };
    await this.db.transaction().execute(async (trx) => {
      await bumpRevision(trx, 'limits');
      const same = await trx
        .selectFrom('limit_rules')
        .select('id')
        .where('scope', '=', rule.scope)
        .where('subject', '=', rule.subject)
        .where('model', '=', rule.model ?? '')
        .where('kind', '=', rule.kind)
        .executeTakeFirst();
      if (same) throw new DuplicateRuleError(same.id);
      if ((await countRules(trx)) >= this.maxRules) throw new RuleCountError(this.maxRules);
      await trx
        .insertInto('limit_rules')
        .values({
          id: stored.id,
          scope: rule.scope,
          subject: rule.subject,
          model: rule.model ?? '',
          kind: rule.kind,
          limit_value: rule.limit,
          created_at: now,
          updated_at: now,
        })
        .execute();
    });
    return stored;
  }

  /** The rule as changed; undefined when no rule has this id. */
  async changeLimit(id: string, limit: number, now: number): Promise<StoredLimitRule | undefined> {
    return this.db.transaction().execute(async (trx) => {
      await bumpRevision(trx, 'limits');
      await trx.updateTable('limit_rules').set({ limit_value: limit, updated_at: now }).where('id', '=', id).execute();
      const row = await trx.selectFrom('limit_rules').selectAll().where('id', '=', id).executeTakeFirst();
      return row ? limitFromRow(row) : undefined;
    });
  }

  /** The removed rule; undefined when no rule had this id. */
  async removeLimit(id: string): Promise<StoredLimitRule | undefined> {
    return this.db.transaction().execute(async (trx) => {
      await bumpRevision(trx, 'limits');
      const row = await trx.selectFrom('limit_rules').selectAll().where('id', '=', id).executeTakeFirst();
      if (row) await trx.deleteFrom('limit_rules').where('id', '=', id).execute();
      return row ? limitFromRow(row) : undefined;
    });
  }

  /** Throws `DuplicateRuleError` when the subject has a budget of this period, `RuleCountError` past the cap. */
  async createBudget(rule: NewBudgetRule, now: number): Promise<StoredBudgetRule> {
    const stored: StoredBudgetRule = { ...rule, id: prefixedId('bud_'), createdAt: now, updatedAt: now };
    await this.db.transaction().execute(async (trx) => {
      await bumpRevision(trx, 'limits');
      const same = await sameBudget(trx, rule.scope, rule.subject, rule.period);
      if (same) throw new DuplicateRuleError(same);
      if ((await countRules(trx)) >= this.maxRules) throw new RuleCountError(this.maxRules);
      await trx
        .insertInto('budget_rules')
        .values({
          id: stored.id,
          scope: rule.scope,
          subject: rule.subject,
          period: rule.period,
          time_zone: rule.timeZone,
          limit_nusd: rule.limitNusd,
          soft_nusd: rule.softNusd,
          created_at: now,
          updated_at: now,
        })
        .execute();
    });
    return stored;
  }

  /**
   * The budget as changed; undefined when no budget has this id. `check` sees the budget as it
   * would be, inside the transaction, and may throw to refuse (a soft threshold above the cap).
   */
  async changeBudget(id: string, change: BudgetChange, now: number, check: (next: StoredBudgetRule) => void = () => {}): Promise<StoredBudgetRule | undefined> {
    return this.db.transaction().execute(async (trx) => {
      await bumpRevision(trx, 'limits');
      const row = await trx.selectFrom('budget_rules').selectAll().where('id', '=', id).executeTakeFirst();
      if (!row) return undefined;
      const next: StoredBudgetRule = { ...budgetFromRow(row), ...change, updatedAt: now };
      check(next);
      if (next.period !== row.period) {
        const same = await sameBudget(trx, next.scope, next.subject, next.period);
        if (same) throw new DuplicateRuleError(same);
      }
      await trx
        .updateTable('budget_rules')
        .set({ period: next.period, time_zone: next.timeZone, limit_nusd: next.limitNusd, soft_nusd: next.softNusd, updated_at: now })
        .where('id', '=', id)
        .execute();
      return next;
    });
  }

  async removeBudget(id: string): Promise<StoredBudgetRule | undefined> {
    return this.db.transaction().execute(async (trx) => {
      await bumpRevision(trx, 'limits');
      const row = await trx.selectFrom('budget_rules').selectAll().where('id', '=', id).executeTakeFirst();
      if (row) await trx.deleteFrom('budget_rules').where('id', '=', id).execute();
      return row ? budgetFromRow(row) : undefined;
    });
  }
}

async function sameBudget(trx: Transaction<Database>, scope: string, subject: string, period: string): Promise<string | undefined> {
  const row = await trx
    .selectFrom('budget_rules')
    .select('id')
    .where('scope', '=', scope)
    .where('subject', '=', subject)
    .where('period', '=', period)
    .executeTakeFirst();
  return row?.id;
}
