import type { Kysely } from 'kysely';

/**
 * The limit and budget rules an operator sets (issue 26, `docs/limits.md`). A limit rule without
 * a model pattern stores `model` as '' (not NULL), so the unique index over (scope, subject,
 * model, kind) refuses a second rule for the same thing on every database alike. Budgets are in
 * nUSD (BIGINT); one budget per subject and period.
 */
export const limitRulesMigration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createTable('limit_rules')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('scope', 'text', (c) => c.notNull())
      .addColumn('subject', 'text', (c) => c.notNull())
      .addColumn('model', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('limit_value', 'bigint', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('limit_rules_unique').on('limit_rules').columns(['scope', 'subject', 'model', 'kind']).unique().execute();
    await db.schema
      .createTable('budget_rules')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('scope', 'text', (c) => c.notNull())
      .addColumn('subject', 'text', (c) => c.notNull())
      .addColumn('period', 'text', (c) => c.notNull())
      .addColumn('time_zone', 'text', (c) => c.notNull())
      .addColumn('limit_nusd', 'bigint', (c) => c.notNull())
      .addColumn('soft_nusd', 'bigint')
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('budget_rules_unique').on('budget_rules').columns(['scope', 'subject', 'period']).unique().execute();
  },
  async down(db: Kysely<unknown>): Promise<void> {
    await db.schema.dropTable('budget_rules').execute();
    await db.schema.dropTable('limit_rules').execute();
  },
};
