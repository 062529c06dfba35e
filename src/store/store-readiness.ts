/**
 * The store's part of `/readyz`: the database answers a trivial query, and every migration this
 * build knows is applied (a replica of an older build on a migrated database stays ready; one
 * whose migrations were never run is not).
 */
import { type Kysely, Migrator, sql } from 'kysely';
import { migrationsFor, type OpenedStore } from './open-store.js';
import type { Database } from './schema.js';

export async function storeNotReady(store: OpenedStore): Promise<string | undefined> {
  await sql`select 1`.execute(store.db);
  const pending = await pendingMigrations(store.db, store.dialect);
  return pending.length === 0 ? undefined : `migrations not applied: ${pending.join(', ')}`;
}

async function pendingMigrations(db: Kysely<Database>, dialect: OpenedStore['dialect']): Promise<string[]> {
  const migrations = await new Migrator({ db, provider: migrationsFor(dialect) }).getMigrations();
  return migrations.filter((migration) => migration.executedAt === undefined).map((migration) => migration.name);
}
