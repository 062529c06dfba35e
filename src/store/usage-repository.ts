/** Usage records: written in batches by the ledger, read by reports. */
import type { Database as BetterSqliteDatabase } from 'better-sqlite3';
import type { Insertable, Kysely, Selectable } from 'kysely';
import type { Database, UsageRecordsTable } from './schema.js';

export type UsageRow = Insertable<UsageRecordsTable>;
export type StoredUsage = Selectable<UsageRecordsTable>;

export interface UsageTotals {
  requests: number;
  inputTokens: number;
  outputTokens: number;
  costUsd: number;
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
  'cost_usd',
  'latency_ms',
  'created_at',
] as const;
const COLUMNS = [...USAGE_TEXT_COLUMNS, ...USAGE_NUMBER_COLUMNS];

export class UsageRepository {
  private sqliteInsert?: (rows: UsageRow[]) => void;

  /**
   * With a raw SQLite handle, batches go through one prepared statement in a transaction:
   * better-sqlite3 is synchronous, so this write runs on the event loop, and building a
   * 1,000-row statement through the query builder held it for tens of milliseconds.
   */
  constructor(
    private readonly db: Kysely<Database>,
    sqlite?: BetterSqliteDatabase,
  ) {
    if (sqlite) {
      const statement = sqlite.prepare(
        `INSERT INTO usage_records (${COLUMNS.join(', ')}) VALUES (${COLUMNS.map((c) => `@${c}`).join(', ')}) ON CONFLICT (request_id) DO NOTHING`,
      );
      this.sqliteInsert = sqlite.transaction((rows: UsageRow[]) => {
        for (const row of rows) statement.run(row);
      });
    }
  }

  /** Inserts rows; a request id the table already holds is skipped (rows are written at most once). */
  async insertMany(rows: UsageRow[]): Promise<void> {
    if (rows.length === 0) return;
    if (this.sqliteInsert) {
      this.sqliteInsert(rows);
      return;
    }
    // Bounded statement size: SQLite allows 32k parameters; 19 columns a row.
    for (let i = 0; i < rows.length; i += 500) {
      await this.db
        .insertInto('usage_records')
        .values(rows.slice(i, i + 500))
        .onConflict((conflict) => conflict.column('request_id').doNothing())
        .execute();
    }
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
        eb.fn.coalesce(eb.fn.sum<number>('cost_usd'), eb.val(0)).as('cost'),
      ])
      .where('created_at', '>=', since);
    if (keyId) query = query.where('key_id', '=', keyId);
    const row = await query.executeTakeFirstOrThrow();
    return { requests: Number(row.requests), inputTokens: Number(row.input), outputTokens: Number(row.output), costUsd: Number(row.cost) };
  }
}
