/**
 * Opens the store named by a database URL: `sqlite:<path>` (embedded default; the file's
 * folder is created) or `postgres://…`. Migrations run on open.
 */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Database as BetterSqliteDatabase } from 'better-sqlite3';
import type { CustomTypesConfig } from 'pg';
import { Kysely, Migrator, PostgresDialect, SqliteDialect, type Migration, type MigrationProvider } from 'kysely';
import type { Database } from './schema.js';
import type { StoreDialect } from './store-dialect.js';
import { initialMigration } from './migrations/001-initial.js';
import { usageUnitsMigration } from './migrations/002-usage-units.js';

export type { StoreDialect };

export interface OpenedStore {
  db: Kysely<Database>;
  dialect: StoreDialect;
  /** The raw SQLite handle, for the few writes that bypass the query builder for speed. */
  sqlite?: BetterSqliteDatabase;
  close(): Promise<void>;
}

function migrationsFor(dialect: StoreDialect): MigrationProvider {
  return {
    async getMigrations(): Promise<Record<string, Migration>> {
      return { '001-initial': initialMigration(dialect), '002-usage-units': usageUnitsMigration };
    },
  };
}

const INT8_OID = 20;

export function dialectOf(url: string): StoreDialect {
  if (url.startsWith('postgres://') || url.startsWith('postgresql://')) return 'postgres';
  if (url.startsWith('sqlite:')) return 'sqlite';
  throw new Error(`unsupported database URL "${url}": use sqlite:<path> or postgres://…`);
}

export async function openStore(url: string): Promise<OpenedStore> {
  const dialect = dialectOf(url);
  let db: Kysely<Database>;
  let sqliteHandle: BetterSqliteDatabase | undefined;
  // Each driver is loaded only when used: the one not chosen costs no memory.
  if (dialect === 'postgres') {
    const { default: pg } = await import('pg');
    const pool = new pg.Pool({
      connectionString: url,
      max: 10,
      // Counters and times are bigint columns; they fit in a double.
      types: { getTypeParser: (oid: number, format?: string) => (oid === INT8_OID ? Number : pg.types.getTypeParser(oid, format as 'text')) } as CustomTypesConfig,
    });
    db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  } else {
    const path = url.slice('sqlite:'.length) || './data/gengate.db';
    if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
    const { default: SqliteDatabase } = await import('better-sqlite3');
    const sqlite = new SqliteDatabase(path);
    sqlite.pragma('journal_mode = WAL');
    sqlite.pragma('synchronous = NORMAL');
    sqlite.pragma('busy_timeout = 5000');
    sqliteHandle = sqlite;
    db = new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
  }
  const migrator = new Migrator({ db, provider: migrationsFor(dialect) });
  const { error } = await migrator.migrateToLatest();
  if (error) {
    await db.destroy();
    throw error instanceof Error ? error : new Error(String(error));
  }
  return { db, dialect, sqlite: sqliteHandle, close: () => db.destroy() };
}
