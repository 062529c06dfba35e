import { sql, type Kysely } from 'kysely';
import { LATENCY_BOUNDS, LATENCY_COLUMNS, latencyBucketSql } from '../latency-histogram.js';
import type { StoreDialect } from '../store-dialect.js';

const KEY_COLUMNS = ['day', 'account_id', 'key_id', 'model', 'channel', 'surface', 'operation'];
const COUNTER_COLUMNS = ['requests', 'errors', 'input_tokens', 'output_tokens', 'cache_read_tokens', 'cache_write_tokens', 'reasoning_tokens', 'units'];

/**
 * The daily usage rollup the usage reports read (`usage_daily`, see `usage-rollup.ts`), filled
 * from the usage rows already stored; from here on the usage writer keeps it up to date. Also an
 * index for paging one account's raw usage rows newest first.
 */
export function usageRollupsMigration(dialect: StoreDialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      let table = db.schema.createTable('usage_daily').addColumn('day', 'integer', (c) => c.notNull());
      for (const column of KEY_COLUMNS.slice(1)) table = table.addColumn(column, 'text', (c) => c.notNull());
      for (const column of COUNTER_COLUMNS) table = table.addColumn(column, 'bigint', (c) => c.notNull().defaultTo(0));
      table = table.addColumn('cost_usd', 'double precision', (c) => c.notNull().defaultTo(0));
      table = table.addColumn('latency_ms_sum', 'bigint', (c) => c.notNull().defaultTo(0));
      for (const column of LATENCY_COLUMNS) table = table.addColumn(column, 'bigint', (c) => c.notNull().defaultTo(0));
      await table.execute();
      await db.schema.createIndex('usage_daily_key').unique().on('usage_daily').columns(KEY_COLUMNS).execute();
      await db.schema.createIndex('usage_daily_account_day').on('usage_daily').columns(['account_id', 'day']).execute();
      await db.schema.createIndex('usage_daily_key_day').on('usage_daily').columns(['key_id', 'day']).execute();
      await db.schema.createIndex('usage_records_account_id').on('usage_records').columns(['account_id', 'id']).execute();

      const day = dialect === 'postgres' ? 'CAST(FLOOR(created_at / 86400000.0) AS INTEGER)' : 'CAST(created_at / 86400000 AS INTEGER)';
      const buckets = LATENCY_COLUMNS.map((_column, i) => `SUM(CASE WHEN b = ${i} THEN 1 ELSE 0 END)`);
      const columns = [...KEY_COLUMNS, ...COUNTER_COLUMNS, 'cost_usd', 'latency_ms_sum', ...LATENCY_COLUMNS];
      const backfill = `INSERT INTO usage_daily (${columns.join(', ')})
        SELECT ${KEY_COLUMNS.join(', ')},
          COUNT(*), SUM(CASE WHEN outcome <> 'ok' THEN 1 ELSE 0 END),
          SUM(input_tokens), SUM(output_tokens), SUM(cache_read_tokens), SUM(cache_write_tokens), SUM(reasoning_tokens), SUM(units),
          SUM(cost_usd), SUM(latency_ms), ${buckets.join(', ')}
        FROM (
          SELECT ${day} AS day, COALESCE(account_id, '') AS account_id, key_id, model, channel, surface, operation, outcome,
            input_tokens, output_tokens, cache_read_tokens, cache_write_tokens, reasoning_tokens, units, cost_usd, latency_ms,
            ${latencyBucketSql('latency_ms')} AS b
          FROM usage_records
        ) AS rows
        GROUP BY ${KEY_COLUMNS.join(', ')}`;
      if (LATENCY_COLUMNS.length !== LATENCY_BOUNDS.length + 1) throw new Error('latency histogram columns and bounds disagree');
      await sql.raw(backfill).execute(db);
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropIndex('usage_records_account_id').execute();
      await db.schema.dropTable('usage_daily').execute();
    },
  };
}
