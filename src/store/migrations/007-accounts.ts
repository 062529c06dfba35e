import type { Kysely } from 'kysely';
import type { StoreDialect } from '../store-dialect.js';

/**
 * Accounts and their sign-in (sessions, one-time links, failed attempts), the admin audit log,
 * and the account a key, a usage row and a task belong to.
 */
export function accountsMigration(dialect: StoreDialect) {
  const serial = dialect === 'postgres' ? 'bigserial' : 'integer';
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('accounts')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('email', 'text', (c) => c.notNull().unique())
        .addColumn('role', 'text', (c) => c.notNull())
        .addColumn('password_hash', 'text')
        .addColumn('models', 'text')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .addColumn('disabled_at', 'bigint')
        .execute();

      await db.schema
        .createTable('sessions')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('account_id', 'text', (c) => c.notNull())
        .addColumn('csrf_token', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .addColumn('last_seen_at', 'bigint', (c) => c.notNull())
        .addColumn('ip', 'text', (c) => c.notNull())
        .addColumn('user_agent', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('sessions_account').on('sessions').column('account_id').execute();

      await db.schema
        .createTable('account_links')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('account_id', 'text', (c) => c.notNull())
        .addColumn('purpose', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .addColumn('used_at', 'bigint')
        .execute();

      await db.schema
        .createTable('login_failures')
        .addColumn('id', serial, (c) => (dialect === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement()))
        .addColumn('email', 'text', (c) => c.notNull())
        .addColumn('ip', 'text', (c) => c.notNull())
        .addColumn('at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('login_failures_email').on('login_failures').columns(['email', 'at']).execute();
      await db.schema.createIndex('login_failures_ip').on('login_failures').columns(['ip', 'at']).execute();

      await db.schema
        .createTable('audit_log')
        .addColumn('id', serial, (c) => (dialect === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement()))
        .addColumn('at', 'bigint', (c) => c.notNull())
        .addColumn('actor_kind', 'text', (c) => c.notNull())
        .addColumn('actor_id', 'text')
        .addColumn('actor_label', 'text', (c) => c.notNull())
        .addColumn('action', 'text', (c) => c.notNull())
        .addColumn('target', 'text')
        .addColumn('details', 'text')
        .addColumn('ip', 'text')
        .execute();
      await db.schema.createIndex('audit_log_at').on('audit_log').column('at').execute();

      await db.schema.alterTable('api_keys').addColumn('account_id', 'text').execute();
      await db.schema
        .alterTable('api_keys')
        .addColumn('admin', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema.createIndex('api_keys_account').on('api_keys').column('account_id').execute();
      await db.schema.alterTable('usage_records').addColumn('account_id', 'text').execute();
      await db.schema.alterTable('tasks').addColumn('account_id', 'text').execute();
      await db.schema.createIndex('tasks_account_created').on('tasks').columns(['account_id', 'created_at']).execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropIndex('tasks_account_created').execute();
      await db.schema.alterTable('tasks').dropColumn('account_id').execute();
      await db.schema.alterTable('usage_records').dropColumn('account_id').execute();
      await db.schema.dropIndex('api_keys_account').execute();
      await db.schema.alterTable('api_keys').dropColumn('admin').execute();
      await db.schema.alterTable('api_keys').dropColumn('account_id').execute();
      for (const table of ['audit_log', 'login_failures', 'account_links', 'sessions', 'accounts']) await db.schema.dropTable(table).execute();
    },
  };
}
