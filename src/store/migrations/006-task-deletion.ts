import type { Kysely } from 'kysely';

/** Tasks a client deleted stay for the ledger's sake, hidden from every lookup. */
export const taskDeletionMigration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema.alterTable('tasks').addColumn('deleted_at', 'bigint').execute();
  },
  async down(db: Kysely<unknown>): Promise<void> {
    await db.schema.alterTable('tasks').dropColumn('deleted_at').execute();
  },
};
