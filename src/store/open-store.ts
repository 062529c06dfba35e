/**
 * Opens the store named by a database URL: `sqlite:<path>` (embedded default; the file's
 * folder is created) or `postgres://…`. Migrations run on open unless asked not to
 * (`gengate migrate` opens without them, then applies them and reports what it applied).
 * Failures to open are `StoreOpenError`s with a one-line message naming the database.
 */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Database as BetterSqliteDatabase } from 'better-sqlite3';
import type { CustomTypesConfig } from 'pg';
import { withCachedStatements } from './cached-statements.js';
import { Kysely, Migrator, PostgresDialect, SqliteDialect, type Migration, type MigrationProvider } from 'kysely';
import type { Database } from './schema.js';
import type { StoreDialect } from './store-dialect.js';
import { initialMigration } from './migrations/001-initial.js';
import { usageUnitsMigration } from './migrations/002-usage-units.js';
import { channelsMigration } from './migrations/003-channels.js';
import { uniqueRequestIdMigration } from './migrations/004-unique-request-id.js';
import { tasksMigration } from './migrations/005-tasks.js';
import { taskDeletionMigration } from './migrations/006-task-deletion.js';
import { accountsMigration } from './migrations/007-accounts.js';
import { usageRollupsMigration } from './migrations/008-usage-rollups.js';
import { storeRevisionsMigration } from './migrations/009-store-revisions.js';
import { modelOverridesMigration } from './migrations/010-model-overrides.js';
import { unpricedUsageMigration } from './migrations/024-unpriced-usage.js';
import { storedResponseTotalsMigration } from './migrations/025-stored-response-totals.js';
import { usageDimensionRollupsMigration } from './migrations/011-usage-dimension-rollups.js';
import { webhookFairnessMigration } from './migrations/012-webhook-fairness.js';
import { keyRevisionsMigration } from './migrations/013-key-revisions.js';
import { loginFailureDevicesMigration } from './migrations/014-login-failure-devices.js';
import { mediaFilesMigration } from './migrations/015-media-files.js';
import { storedResponsesMigration } from './migrations/016-stored-responses.js';
import { backgroundResponsesMigration } from './migrations/017-background-responses.js';
import { storedResponseItemsMigration } from './migrations/018-stored-response-items.js';
import { moneyNusdMigration } from './migrations/019-money-nusd.js';
import { usageRefusalMigration } from './migrations/021-usage-refusal.js';
import { limitRulesMigration } from './migrations/022-limit-rules.js';
import { errorTypesMigration } from './migrations/023-error-types.js';

export type { StoreDialect };

export interface OpenedStore {
  db: Kysely<Database>;
  dialect: StoreDialect;
  /** The raw SQLite handle, for the few writes that bypass the query builder for speed. */
  sqlite?: BetterSqliteDatabase;
  close(): Promise<void>;
}

export function migrationsFor(dialect: StoreDialect): MigrationProvider {
  return {
    async getMigrations(): Promise<Record<string, Migration>> {
      return {
        '001-initial': initialMigration(dialect),
        '002-usage-units': usageUnitsMigration,
        '003-channels': channelsMigration,
        '004-unique-request-id': uniqueRequestIdMigration,
        '005-tasks': tasksMigration(dialect),
        '006-task-deletion': taskDeletionMigration,
        '007-accounts': accountsMigration(dialect),
        '008-usage-rollups': usageRollupsMigration(dialect),
        '009-store-revisions': storeRevisionsMigration,
        '010-model-overrides': modelOverridesMigration,
        '011-usage-dimension-rollups': usageDimensionRollupsMigration,
        '012-webhook-fairness': webhookFairnessMigration,
        '013-key-revisions': keyRevisionsMigration,
        '014-login-failure-devices': loginFailureDevicesMigration,
        '015-media-files': mediaFilesMigration,
        '016-stored-responses': storedResponsesMigration,
        '017-background-responses': backgroundResponsesMigration,
        '018-stored-response-items': storedResponseItemsMigration,
        '019-money-nusd': moneyNusdMigration(dialect),
        '021-usage-refusal': usageRefusalMigration,
        '022-limit-rules': limitRulesMigration,
        '023-error-types': errorTypesMigration,
        '024-unpriced-usage': unpricedUsageMigration,
        '025-stored-response-totals': storedResponseTotalsMigration,
      };
    },
  };
}

const INT8_OID = 20;

/** Why the store could not be opened, in one line; `unsupported` marks a configuration mistake. */
export class StoreOpenError extends Error {
  constructor(
    message: string,
    readonly reason: 'unsupported' | 'unreachable' | 'failed',
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'StoreOpenError';
  }
}

/** The URL without its password, fit for messages and the start banner. */
export function redactDatabaseUrl(url: string): string {
  return url.replace(/\/\/([^@/:]*):[^/]*@/, '//$1:***@');
}

function dialectOf(url: string): StoreDialect {
  if (url.startsWith('postgres://') || url.startsWith('postgresql://')) return 'postgres';
  if (url.startsWith('sqlite:')) return 'sqlite';
  throw new StoreOpenError(`unsupported database URL "${redactDatabaseUrl(url)}": use sqlite:<path> or postgres://user@host:port/db`, 'unsupported');
}

/** Node's network errors carry a code; a refused "localhost" is an AggregateError of one per address. */
function errorCode(error: unknown): string | undefined {
  const found = error as { code?: unknown; errors?: unknown[] } | null;
  if (typeof found?.code === 'string') return found.code;
  return found?.errors?.length ? errorCode(found.errors[0]) : undefined;
}

function firstLine(error: unknown): string {
  const found = error as { message?: unknown; errors?: unknown[] } | null;
  const message = typeof found?.message === 'string' && found.message ? found.message : found?.errors?.length ? firstLine(found.errors[0]) : String(error);
  return message.split('\n')[0];
}

const CONNECT_TIMEOUT_MS = 10_000;
const POOL_CONNECT_TIMEOUT_MS = 5_000;
const UNREACHABLE = new Set(['ECONNREFUSED', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN', 'ECONNRESET']);

/** The pool connects lazily and would wait forever on a silent host: one bounded connection first. */
async function checkPostgresReachable(pg: typeof import('pg').default, url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
  client.on('error', () => {});
  try {
    await client.connect();
  } catch (error) {
    const code = errorCode(error);
    const where = redactDatabaseUrl(url);
    if ((code && UNREACHABLE.has(code)) || /timeout/i.test(firstLine(error))) {
      throw new StoreOpenError(
        `cannot reach PostgreSQL at ${where} (${code ?? 'connection timeout'}): is it running, and are host and port right?`,
        'unreachable',
        { cause: error },
      );
    }
    throw new StoreOpenError(`cannot open PostgreSQL database ${where}: ${firstLine(error)}`, 'failed', { cause: error });
  } finally {
    await client.end().catch(() => {});
  }
}

interface OpenStoreOptions {
  /** Apply pending migrations on open (default true). */
  migrate?: boolean;
}

export async function openStore(url: string, options: OpenStoreOptions = {}): Promise<OpenedStore> {
  const dialect = dialectOf(url);
  let db: Kysely<Database>;
  let sqliteHandle: BetterSqliteDatabase | undefined;
  // Each driver is loaded only when used: the one not chosen costs no memory.
  if (dialect === 'postgres') {
    const { default: pg } = await import('pg');
    await checkPostgresReachable(pg, url);
    const pool = new pg.Pool({
      connectionString: url,
      max: 10,
      // A request waits at most this long for a connection (a silent host, every connection busy), then fails.
      connectionTimeoutMillis: POOL_CONNECT_TIMEOUT_MS,
      // Counters and times are bigint columns; they fit in a double.
      types: {
        getTypeParser: (oid: number, format?: string) => (oid === INT8_OID ? Number : pg.types.getTypeParser(oid, format as 'text')),
      } as CustomTypesConfig,
    });
    // An idle pooled connection the server ends (a restart, a terminated backend) is an 'error' on the pool;
    // unhandled, it would end the process. The pool drops that client and connects anew for the next query,
    // and a query that cannot get a connection fails on its own.
    pool.on('error', () => {});
    // A connection that dies while checked out (mid-query or mid-transaction: the server crashed or
    // restarted) emits 'error' on its client, which the pool listens to only while the client is idle;
    // unhandled, that ends the process. The query in flight fails on its own, and the pool discards
    // the broken client when it is released.
    pool.on('connect', (client) => client.on('error', () => {}));
    db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  } else {
    const path = url.slice('sqlite:'.length) || './data/gengate.db';
    const { default: SqliteDatabase } = await import('better-sqlite3');
    let sqlite: BetterSqliteDatabase;
    try {
      if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
      sqlite = new SqliteDatabase(path);
    } catch (error) {
      throw new StoreOpenError(`cannot open SQLite database ${path}: ${firstLine(error)}`, 'failed', { cause: error });
    }
    sqlite.pragma('journal_mode = WAL');
    sqlite.pragma('synchronous = NORMAL');
    sqlite.pragma('busy_timeout = 5000');
    sqliteHandle = sqlite;
    db = new Kysely<Database>({ dialect: new SqliteDialect({ database: withCachedStatements(sqlite) }) });
  }
  const store: OpenedStore = { db, dialect, sqlite: sqliteHandle, close: () => db.destroy() };
  if (options.migrate ?? true) {
    try {
      await migrateStore(store);
    } catch (error) {
      await db.destroy();
      throw error;
    }
  }
  return store;
}

/**
 * Applies the pending migrations (up to and including `upTo`, a migration's name, when given:
 * tests write rows the way an older schema did); returns the names of those it applied, in
 * order (none: up to date).
 */
export async function migrateStore(store: OpenedStore, upTo?: string): Promise<string[]> {
  const migrator = new Migrator({ db: store.db, provider: migrationsFor(store.dialect) });
  const { error, results } = upTo === undefined ? await migrator.migrateToLatest() : await migrator.migrateTo(upTo);
  if (error) {
    const failed = results?.find((r) => r.status === 'Error')?.migrationName;
    throw new StoreOpenError(`database migration${failed ? ` ${failed}` : ''} failed: ${firstLine(error)}`, 'failed', { cause: error });
  }
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
