import type { Kysely } from 'kysely';

/**
 * Webhook fairness: each delivery's receiver host (`host:port` of its URL), so the claim can cap
 * deliveries in flight per receiver host; an index on `lease_until`, so counting the deliveries
 * in flight (leased) reads only those rather than the whole outbox; and one on (status, owner,
 * next_attempt_at), so the claim reaches each key's oldest due deliveries without reading any
 * key's whole backlog. Rows enqueued before this migration have no host; the claim groups them
 * by URL instead.
 */
export const webhookFairnessMigration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema.alterTable('webhook_deliveries').addColumn('host', 'text').execute();
    await db.schema.createIndex('webhook_deliveries_leased').on('webhook_deliveries').column('lease_until').execute();
    await db.schema.createIndex('webhook_deliveries_owner_due').on('webhook_deliveries').columns(['status', 'owner', 'next_attempt_at']).execute();
  },
  async down(db: Kysely<unknown>): Promise<void> {
    await db.schema.dropIndex('webhook_deliveries_owner_due').ifExists().execute();
    await db.schema.dropIndex('webhook_deliveries_leased').ifExists().execute();
    await db.schema.alterTable('webhook_deliveries').dropColumn('host').execute();
  },
};
