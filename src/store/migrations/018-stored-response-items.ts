import type { Kysely } from 'kysely';

/**
 * Where each stored item is, by its id, per owner (an account id, or `key:<id>` for a key
 * without one): `item_reference` names an item of any earlier stored response of the account, not
 * only of the conversation `previous_response_id` continues. One row per (owner, item id) naming
 * the response that last stored an item of that id (an item referenced again is stored again,
 * same id, in the newer response); the item itself stays in that response's JSON. Rows go with
 * their response (delete, retention sweep), hence the index on `response_id`.
 */
export const storedResponseItemsMigration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createTable('stored_response_items')
      .addColumn('owner', 'text', (c) => c.notNull())
      .addColumn('item_id', 'text', (c) => c.notNull())
      .addColumn('response_id', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('stored_response_items_key', ['owner', 'item_id'])
      .execute();
    await db.schema.createIndex('stored_response_items_response').on('stored_response_items').column('response_id').execute();
  },
  async down(db: Kysely<unknown>): Promise<void> {
    await db.schema.dropTable('stored_response_items').execute();
  },
};
