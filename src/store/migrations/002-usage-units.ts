import type { Kysely } from 'kysely';

/** Images and seconds of video are billed per unit, not per token. */
export const usageUnitsMigration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .alterTable('usage_records')
      .addColumn('units', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
  },
  async down(db: Kysely<unknown>): Promise<void> {
    await db.schema.alterTable('usage_records').dropColumn('units').execute();
  },
};
