import type { Kysely } from 'kysely';
import type { StoreDialect } from '../store-dialect.js';

/**
 * The durable task engine: tasks (one row per asynchronous job, written before any upstream
 * sees it), their ledger (one entry per task and kind, so a refund or settlement happens once)
 * and the client-webhook outbox (one delivery per task version, so a restart never redelivers).
 */
export function tasksMigration(dialect: StoreDialect) {
  const serial = dialect === 'postgres' ? 'bigserial' : 'integer';
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('tasks')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('owner', 'text', (c) => c.notNull())
        .addColumn('surface', 'text', (c) => c.notNull())
        .addColumn('operation', 'text', (c) => c.notNull())
        .addColumn('model', 'text', (c) => c.notNull())
        .addColumn('request', 'text', (c) => c.notNull())
        .addColumn('parent_id', 'text')
        .addColumn('channel', 'text')
        .addColumn('provider', 'text')
        .addColumn('upstream_model', 'text')
        .addColumn('upstream_id', 'text')
        .addColumn('upstream_data', 'text')
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('vendor_status', 'text')
        .addColumn('progress', 'double precision', (c) => c.notNull())
        .addColumn('result', 'text')
        .addColumn('error_code', 'text')
        .addColumn('error_message', 'text')
        .addColumn('price_usd', 'double precision', (c) => c.notNull())
        .addColumn('callback_url', 'text')
        .addColumn('callback_state', 'text')
        .addColumn('callback_token', 'text', (c) => c.notNull().unique())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('submitted_at', 'bigint')
        .addColumn('started_at', 'bigint')
        .addColumn('finished_at', 'bigint')
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .addColumn('deadline_at', 'bigint', (c) => c.notNull())
        .addColumn('next_poll_at', 'bigint', (c) => c.notNull())
        .addColumn('poll_count', 'integer', (c) => c.notNull())
        .addColumn('lease_owner', 'text')
        .addColumn('lease_until', 'bigint', (c) => c.notNull())
        .addColumn('version', 'integer', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('tasks_due').on('tasks').columns(['status', 'next_poll_at']).execute();
      await db.schema.createIndex('tasks_owner_time').on('tasks').columns(['owner', 'created_at']).execute();
      await db.schema.createIndex('tasks_upstream').on('tasks').columns(['provider', 'upstream_id']).execute();

      await db.schema
        .createTable('task_ledger')
        .addColumn('id', serial, (c) => (dialect === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement()))
        .addColumn('task_id', 'text', (c) => c.notNull())
        .addColumn('owner', 'text', (c) => c.notNull())
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('amount_usd', 'double precision', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('task_ledger_once').unique().on('task_ledger').columns(['task_id', 'kind']).execute();

      await db.schema
        .createTable('webhook_deliveries')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('task_id', 'text', (c) => c.notNull())
        .addColumn('owner', 'text', (c) => c.notNull())
        .addColumn('url', 'text', (c) => c.notNull())
        .addColumn('body', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('attempts', 'integer', (c) => c.notNull())
        .addColumn('next_attempt_at', 'bigint', (c) => c.notNull())
        .addColumn('lease_until', 'bigint', (c) => c.notNull())
        .addColumn('last_error', 'text')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('delivered_at', 'bigint')
        .execute();
      await db.schema.createIndex('webhook_deliveries_due').on('webhook_deliveries').columns(['status', 'next_attempt_at']).execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropTable('webhook_deliveries').execute();
      await db.schema.dropTable('task_ledger').execute();
      await db.schema.dropTable('tasks').execute();
    },
  };
}
