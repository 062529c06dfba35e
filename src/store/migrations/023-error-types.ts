import type { Kysely } from 'kysely';

/**
 * Whose fault a failure was, in the closed vocabulary of `core/error-type.ts` (`upstream.timeout`,
 * `client.auth`, …): on a usage row of a failed call or task, and on a task that failed. Null on
 * successes, on client cancels, and on every row written before this migration.
 */
export const errorTypesMigration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema.alterTable('usage_records').addColumn('error_type', 'text').execute();
    await db.schema.alterTable('tasks').addColumn('error_type', 'text').execute();
  },
  async down(db: Kysely<unknown>): Promise<void> {
    await db.schema.alterTable('tasks').dropColumn('error_type').execute();
    await db.schema.alterTable('usage_records').dropColumn('error_type').execute();
  },
};
