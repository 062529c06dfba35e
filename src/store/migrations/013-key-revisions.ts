import type { Kysely } from 'kysely';

/**
 * Each key row carries the `keys` revision of its last change (creation or revocation), so a
 * process told that the revision moved reads only the keys changed since the one it holds.
 */
export const keyRevisionsMigration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .alterTable('api_keys')
      .addColumn('revision', 'bigint', (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema.createIndex('api_keys_revision').on('api_keys').column('revision').execute();
  },
  async down(db: Kysely<unknown>): Promise<void> {
    await db.schema.dropIndex('api_keys_revision').execute();
    await db.schema.alterTable('api_keys').dropColumn('revision').execute();
  },
};
