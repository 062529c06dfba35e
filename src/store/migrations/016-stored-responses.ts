import type { Kysely } from 'kysely';

/**
 * The Responses API's conversation state: one row per stored response, owned by an account (or
 * `key:<id>` for a key without one), with its input and output items and the rendered response
 * object as JSON text (text, not jsonb: PostgreSQL's jsonb refuses `\u0000`, which JSON text may
 * hold). `item_count` and `bytes` let a conversation's walk check its bounds before it reads any
 * items; `expires_at` is what the retention sweep deletes by.
 */
export const storedResponsesMigration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createTable('stored_responses')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('owner', 'text', (c) => c.notNull())
      .addColumn('account_id', 'text')
      .addColumn('key_id', 'text', (c) => c.notNull())
      .addColumn('model', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('previous_response_id', 'text')
      .addColumn('input_items', 'text', (c) => c.notNull())
      .addColumn('output_items', 'text', (c) => c.notNull())
      .addColumn('object', 'text', (c) => c.notNull())
      .addColumn('item_count', 'integer', (c) => c.notNull())
      .addColumn('bytes', 'bigint', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('expires_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('stored_responses_owner_time').on('stored_responses').columns(['owner', 'created_at', 'id']).execute();
    await db.schema.createIndex('stored_responses_account_time').on('stored_responses').columns(['account_id', 'created_at', 'id']).execute();
    await db.schema.createIndex('stored_responses_time').on('stored_responses').columns(['created_at', 'id']).execute();
    await db.schema.createIndex('stored_responses_expiry').on('stored_responses').column('expires_at').execute();
  },
  async down(db: Kysely<unknown>): Promise<void> {
    await db.schema.dropTable('stored_responses').execute();
  },
};
