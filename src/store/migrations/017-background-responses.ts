import type { Kysely } from 'kysely';

/**
 * Background responses of the Responses API (`background: true`) as durable runs: one row per
 * response, written before the client's 200, with the run's status, the lease of the process
 * running it (`lease_owner`, `lease_until`: one process at a time, re-run after a crash once the
 * lease ran out), its attempts, the key it runs for (a snapshot, re-checked against revocation
 * before each attempt) and the final response object once it ended. Its stream events are kept
 * in `background_response_events` by sequence number, for `GET …?stream=true&starting_after=N`,
 * within the caps counted in `event_count` and `event_bytes`. JSON is text, not jsonb:
 * PostgreSQL's jsonb refuses `\u0000`, which JSON text may hold.
 */
export const backgroundResponsesMigration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createTable('background_responses')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('key_id', 'text', (c) => c.notNull())
      .addColumn('account_id', 'text')
      .addColumn('key_json', 'text', (c) => c.notNull())
      .addColumn('request_id', 'text', (c) => c.notNull())
      .addColumn('body', 'text', (c) => c.notNull())
      .addColumn('stream', 'integer', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('lease_owner', 'text')
      .addColumn('lease_until', 'bigint', (c) => c.notNull())
      .addColumn('final_object', 'text')
      .addColumn('event_count', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('event_bytes', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('next_sequence', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('background_responses_due').on('background_responses').columns(['status', 'lease_until']).execute();
    await db.schema.createIndex('background_responses_time').on('background_responses').column('updated_at').execute();
    await db.schema
      .createTable('background_response_events')
      .addColumn('response_id', 'text', (c) => c.notNull())
      .addColumn('sequence', 'integer', (c) => c.notNull())
      .addColumn('type', 'text', (c) => c.notNull())
      .addColumn('data', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('background_response_events_key', ['response_id', 'sequence'])
      .execute();
  },
  async down(db: Kysely<unknown>): Promise<void> {
    await db.schema.dropTable('background_response_events').execute();
    await db.schema.dropTable('background_responses').execute();
  },
};
