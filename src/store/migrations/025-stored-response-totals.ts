import { type Kysely, sql } from 'kysely';

/**
 * What each owner keeps in stored responses (live or not yet swept): bytes and responses, kept
 * in step by every write and delete of `stored_responses`, so that the per-account cap
 * (`responses.maxStoredMiBPerAccount`) reads one row instead of summing an owner's responses.
 */
export const storedResponseTotalsMigration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createTable('stored_response_totals')
      .addColumn('owner', 'text', (c) => c.primaryKey())
      .addColumn('bytes', 'bigint', (c) => c.notNull())
      .addColumn('responses', 'bigint', (c) => c.notNull())
      .execute();
    await sql`insert into stored_response_totals (owner, bytes, responses)
      select owner, sum(bytes), count(*) from stored_responses group by owner`.execute(db);
  },
  async down(db: Kysely<unknown>): Promise<void> {
    await db.schema.dropTable('stored_response_totals').execute();
  },
};
