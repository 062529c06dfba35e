import type { Kysely } from 'kysely';

/** The rollup tables as they are when this migration is written (008 and 011). */
const ROLLUP_TABLES = ['usage_daily', 'usage_daily_by_key', 'usage_daily_by_model', 'usage_daily_by_channel', 'usage_daily_by_surface'];

/**
 * Calls to a model the catalog has no price for: `usage_records.unpriced` is 1 on their rows
 * (their `cost_nusd` is 0 for want of a price, not because they were free), and every daily
 * rollup counts them, so that reports can show how much usage is not costed.
 */
export const unpricedUsageMigration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .alterTable('usage_records')
      .addColumn('unpriced', 'integer', (column) => column.notNull().defaultTo(0))
      .execute();
    for (const table of ROLLUP_TABLES) {
      await db.schema
        .alterTable(table)
        .addColumn('unpriced', 'bigint', (column) => column.notNull().defaultTo(0))
        .execute();
    }
  },
  async down(db: Kysely<unknown>): Promise<void> {
    for (const table of ROLLUP_TABLES) await db.schema.alterTable(table).dropColumn('unpriced').execute();
    await db.schema.alterTable('usage_records').dropColumn('unpriced').execute();
  },
};
