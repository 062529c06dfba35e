import type { Kysely } from 'kysely';

/**
 * Which limit or budget refused a call (`key requests per minute (30)`, `account monthly budget
 * of $5.00`), on the usage row of the refusal (outcome `rate_limit` or `insufficient_quota`, no
 * channel), so that reports can group refusals by limit. Null on every other row.
 */
export const usageRefusalMigration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema.alterTable('usage_records').addColumn('refusal', 'text').execute();
  },
  async down(db: Kysely<unknown>): Promise<void> {
    await db.schema.alterTable('usage_records').dropColumn('refusal').execute();
  },
};
