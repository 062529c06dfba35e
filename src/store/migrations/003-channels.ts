import type { Kysely } from 'kysely';

/** Channels created at run time, their credentials encrypted. */
export const channelsMigration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createTable('channels')
      .addColumn('name', 'text', (c) => c.primaryKey())
      .addColumn('provider', 'text', (c) => c.notNull())
      .addColumn('definition', 'text', (c) => c.notNull())
      .addColumn('credentials', 'text', (c) => c.notNull())
      .addColumn('key_id', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .execute();
  },
  async down(db: Kysely<unknown>): Promise<void> {
    await db.schema.dropTable('channels').execute();
  },
};
