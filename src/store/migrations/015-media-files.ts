import type { Kysely } from 'kysely';

/**
 * Who owns each stored media file and how large it is (per-account media quotas and the global
 * cap, oldest evicted first), and the bytes each owner wrote per UTC day.
 */
export const mediaFilesMigration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createTable('media_files')
      .addColumn('name', 'text', (c) => c.primaryKey())
      .addColumn('owner', 'text', (c) => c.notNull())
      .addColumn('bytes', 'bigint', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('media_files_owner_time').on('media_files').columns(['owner', 'created_at']).execute();
    await db.schema.createIndex('media_files_time').on('media_files').column('created_at').execute();
    await db.schema
      .createTable('media_daily_writes')
      .addColumn('owner', 'text', (c) => c.notNull())
      .addColumn('day', 'integer', (c) => c.notNull())
      .addColumn('bytes', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('media_daily_writes_key', ['owner', 'day'])
      .execute();
  },
  async down(db: Kysely<unknown>): Promise<void> {
    await db.schema.dropTable('media_daily_writes').execute();
    await db.schema.dropTable('media_files').execute();
  },
};
