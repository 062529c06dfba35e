import { sql, type Kysely } from 'kysely';

/**
 * One usage row per request id, so a row folded in again from the usage journal (or a batch
 * retried after a write whose answer was lost) is never counted twice. Rows that already share
 * an id keep it apart by their row id, so no usage is dropped.
 */
export const uniqueRequestIdMigration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await sql`UPDATE usage_records SET request_id = request_id || '#' || CAST(id AS TEXT)
      WHERE id NOT IN (SELECT MIN(id) FROM usage_records GROUP BY request_id)`.execute(db);
    await db.schema.createIndex('usage_records_request_id').unique().on('usage_records').column('request_id').execute();
  },
  async down(db: Kysely<unknown>): Promise<void> {
    await db.schema.dropIndex('usage_records_request_id').execute();
  },
};
