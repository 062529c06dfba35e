import type { Kysely } from 'kysely';

/** Model changes made at run time (admin API): applied over the shipped catalog and gengate.yaml's `models:`. */
export const modelOverridesMigration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createTable('model_overrides')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('definition', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .execute();
  },
  async down(db: Kysely<unknown>): Promise<void> {
    await db.schema.dropTable('model_overrides').execute();
  },
};
