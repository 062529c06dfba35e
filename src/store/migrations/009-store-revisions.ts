import type { Kysely } from 'kysely';

/**
 * One counter per invalidation topic (keys, channels, catalog), bumped by every write that changes
 * what running processes hold in memory; each process polls this tiny table to notice another's writes.
 */
export const storeRevisionsMigration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createTable('store_revisions')
      .addColumn('topic', 'text', (c) => c.primaryKey())
      .addColumn('revision', 'bigint', (c) => c.notNull())
      .execute();
  },
  async down(db: Kysely<unknown>): Promise<void> {
    await db.schema.dropTable('store_revisions').execute();
  },
};
