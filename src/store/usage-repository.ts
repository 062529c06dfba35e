/** Usage records: written in batches by the ledger, read by reports. */
import type { Database as BetterSqliteDatabase } from 'better-sqlite3';
import { CompiledQuery, sql, type Insertable, type Kysely, type Selectable, type Transaction } from 'kysely';
import type { Database, UsageRecordsTable } from './schema.js';
import type { StoreDialect } from './store-dialect.js';
import { ROLLUP_ADDED_COLUMNS, ROLLUP_TABLES, RollupBatch, type RollupTable, rollupUnnestUpsertSql, rollupUpsertSql } from './usage-rollup.js';

export type UsageRow = Insertable<UsageRecordsTable>;
type StoredUsage = Selectable<UsageRecordsTable>;

interface UsageTotals {
  requests: number;
  inputTokens: number;
  outputTokens: number;
  costNusd: number;
}

/** The text columns of a usage row, then its numeric ones (the journal checks its lines by them too). */
export const USAGE_TEXT_COLUMNS = ['request_id', 'key_id', 'surface', 'operation', 'model', 'channel', 'provider', 'upstream_model', 'outcome'] as const;
export const USAGE_NUMBER_COLUMNS = [
  'stream',
  'input_tokens',
  'output_tokens',
  'cache_read_tokens',
  'cache_write_tokens',
  'reasoning_tokens',
  'units',
  'cost_nusd',
  'latency_ms',
  'created_at',
] as const;
/** Nullable columns a row may leave out (rows from older callers and journal lines): stored as null. */
const OPTIONAL_COLUMNS = ['account_id', 'refusal', 'error_type'] as const;
/** Every column a row writes: the unpriced mark (0 when a row leaves it out) last. */
const COLUMNS = [...USAGE_TEXT_COLUMNS, ...USAGE_NUMBER_COLUMNS, ...OPTIONAL_COLUMNS, 'unpriced'] as const;

/** What the rollup reads back of each row actually inserted. */
const RETURNED = [
  'created_at',
  'account_id',
  'key_id',
  'model',
  'channel',
  'surface',
  'operation',
  'outcome',
  'input_tokens',
  'output_tokens',
  'cache_read_tokens',
  'cache_write_tokens',
  'reasoning_tokens',
  'units',
  'cost_nusd',
  'latency_ms',
  'unpriced',
] as const;

/** Rows without an account, a refusal, an error type or the unpriced mark (older callers, older journal lines) are stored with none. */
function withNulls(row: UsageRow): UsageRow {
  if (row.unpriced !== undefined && OPTIONAL_COLUMNS.every((column) => row[column] !== undefined)) return row;
  return { ...row, account_id: row.account_id ?? null, refusal: row.refusal ?? null, error_type: row.error_type ?? null, unpriced: row.unpriced ?? 0 };
}

/**
 * Where usage rows go: the store's dialect, and on SQLite its raw handle (`OpenedStore` is one).
 * With the handle, rows are written by prepared statements (`insertUsageRows`).
 */
export interface UsageTarget {
  dialect: StoreDialect;
  sqlite?: BetterSqliteDatabase;
}

type SqliteInsert = (rows: UsageRow[]) => void;

/** Prepared once per SQLite handle. */
const sqliteInserts = new WeakMap<BetterSqliteDatabase, SqliteInsert>();

/**
 * The SQLite way to write rows: one prepared statement a row and one a rollup group, in a
 * better-sqlite3 `transaction()` — which, called inside the Kysely transaction already open on
 * the same connection, runs as a SAVEPOINT of it (commits and rolls back with it). better-sqlite3
 * is synchronous, so this write runs on the event loop, and building a 1,000-row statement
 * through the query builder held it for tens of milliseconds.
 */
function sqliteInsertFor(sqlite: BetterSqliteDatabase): SqliteInsert {
  const prepared = sqliteInserts.get(sqlite);
  if (prepared) return prepared;
  const statement = sqlite.prepare(
    `INSERT INTO usage_records (${COLUMNS.join(', ')}) VALUES (${COLUMNS.map((c) => `@${c}`).join(', ')}) ON CONFLICT (request_id) DO NOTHING`,
  );
  const upserts = ROLLUP_TABLES.map((table) => ({ table, statement: sqlite.prepare(rollupUpsertSql(table)) }));
  const insert = sqlite.transaction((rows: UsageRow[]) => {
    const rollup = new RollupBatch();
    for (const row of rows) {
      const stored = withNulls(row);
      // A request id already stored is skipped (changes 0) and must not be counted again.
      if (statement.run(stored).changes === 1) rollup.add(stored);
    }
    for (const { table, statement: upsert } of upserts) for (const values of rollup.values(table)) upsert.run(values);
  });
  sqliteInserts.set(sqlite, insert);
  return insert;
}

export class UsageRepository {
  private readonly target: UsageTarget;

  constructor(
    private readonly db: Kysely<Database>,
    /** The raw SQLite handle: rows are then written by prepared statements (`insertUsageRows`). */
    sqlite?: BetterSqliteDatabase,
    /** On PostgreSQL the rollups are upserted one statement per table (`rollupUnnestUpsertSql`). */
    dialect: StoreDialect = 'sqlite',
  ) {
    this.target = { dialect, sqlite };
  }

  /**
   * Inserts rows and adds them to the daily rollups, in one transaction; a request id the table
   * already holds is skipped (rows are written, and counted, at most once).
   */
  async insertMany(rows: UsageRow[]): Promise<void> {
    if (rows.length === 0) return;
    // Through Kysely's transaction even on SQLite: it holds the connection, so no other transaction's statements interleave.
    await this.db.transaction().execute((trx) => insertUsageRows(trx, rows, this.target));
  }

  async recent(limit: number, keyId?: string): Promise<StoredUsage[]> {
    let query = this.db.selectFrom('usage_records').selectAll().orderBy('id', 'desc').limit(limit);
    if (keyId) query = query.where('key_id', '=', keyId);
    return query.execute();
  }

  async totals(keyId?: string, since = 0): Promise<UsageTotals> {
    let query = this.db
      .selectFrom('usage_records')
      .select((eb) => [
        eb.fn.countAll<number>().as('requests'),
        eb.fn.coalesce(eb.fn.sum<number>('input_tokens'), eb.val(0)).as('input'),
        eb.fn.coalesce(eb.fn.sum<number>('output_tokens'), eb.val(0)).as('output'),
        eb.fn.coalesce(eb.fn.sum<number>('cost_nusd'), eb.val(0)).as('cost'),
      ])
      .where('created_at', '>=', since);
    if (keyId) query = query.where('key_id', '=', keyId);
    const row = await query.executeTakeFirstOrThrow();
    return { requests: Number(row.requests), inputTokens: Number(row.input), outputTokens: Number(row.output), costNusd: Number(row.cost) };
  }
}

/**
 * Inserts rows and adds them to the daily rollups inside the caller's transaction; a request id
 * the table already holds is skipped (rows are written, and counted, at most once). The one way
 * usage rows are written: on SQLite with its raw handle by prepared statements (a savepoint of
 * `trx`), elsewhere through the query builder.
 */
export async function insertUsageRows(trx: Transaction<Database>, rows: UsageRow[], target: UsageTarget): Promise<void> {
  if (rows.length === 0) return;
  if (target.sqlite) {
    sqliteInsertFor(target.sqlite)(rows);
    return;
  }
  const rollup = new RollupBatch();
  // Bounded statement size: SQLite allows 32k parameters; 23 columns a row.
  for (let i = 0; i < rows.length; i += 500) {
    const inserted = await trx
      .insertInto('usage_records')
      .values(rows.slice(i, i + 500).map(withNulls))
      .onConflict((conflict) => conflict.column('request_id').doNothing())
      .returning(RETURNED)
      .execute();
    for (const row of inserted) rollup.add(row);
  }
  await addToRollup(trx, rollup, ROLLUP_TABLES, target.dialect);
}

const UPSERT_CHUNK = 200;

/**
 * Adds a folded batch to rollup tables (every one unless told). PostgreSQL: one statement a table
 * with an array per column (through the query builder, 200 rows × 58 values a statement, this cost
 * twice as much). Elsewhere: 200 rows a statement (58 values a row stay under every parameter limit).
 */
export async function addToRollup(
  trx: Transaction<Database>,
  batch: RollupBatch,
  tables: readonly RollupTable[] = ROLLUP_TABLES,
  dialect: StoreDialect = 'sqlite',
): Promise<void> {
  for (const table of tables) {
    if (dialect === 'postgres') {
      const values = batch.values(table);
      if (values.length === 0) continue;
      const columns = table.keyColumns.length + ROLLUP_ADDED_COLUMNS.length;
      const arrays = Array.from({ length: columns }, (_, i) => values.map((row) => row[i]));
      await trx.executeQuery(CompiledQuery.raw(rollupUnnestUpsertSql(table), arrays));
      continue;
    }
    const rows = batch.rows(table);
    for (let i = 0; i < rows.length; i += UPSERT_CHUNK) {
      // The table's name and columns come from `ROLLUP_TABLES`, which the schema types mirror.
      await trx
        .insertInto(table.name)
        .values(rows.slice(i, i + UPSERT_CHUNK) as never)
        .onConflict((conflict) =>
          conflict
            .columns(table.keyColumns as never)
            .doUpdateSet(
              Object.fromEntries(ROLLUP_ADDED_COLUMNS.map((c) => [c, sql`${sql.ref(`${table.name}.${c}`)} + ${sql.ref(`excluded.${c}`)}`])) as never,
            ),
        )
        .execute();
    }
  }
}
