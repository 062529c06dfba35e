import { sql, type Kysely } from 'kysely';
import { LATENCY_COLUMNS } from '../latency-histogram.js';
import { DIMENSION_ROLLUPS } from '../usage-rollup.js';

/**
 * The per-dimension daily rollups (`usage_daily_by_key`, `…_model`, `…_channel`, `…_surface`,
 * see `usage-rollup.ts`), filled from `usage_daily`, which holds every dimension; from here on the
 * usage writer keeps them up to date with it. The unique key leads with the day (a report's range);
 * a second index serves one account's days (a member's view). Reports that still read
 * `usage_daily` filter by at least one dimension: a (dimension, day) index for each (008 made the key's).
 */
const FINE_INDEXED = ['model', 'channel', 'surface'];

/** The summed columns as they were when this migration was written (019 made `cost_usd` the integer `cost_nusd`). */
const ROLLUP_ADDED_COLUMNS = [
  'requests',
  'errors',
  'input_tokens',
  'output_tokens',
  'cache_read_tokens',
  'cache_write_tokens',
  'reasoning_tokens',
  'units',
  'cost_usd',
  'latency_ms_sum',
  ...LATENCY_COLUMNS,
];

function rollupColumnType(column: string): 'integer' | 'text' | 'bigint' | 'double precision' {
  if (column === 'day') return 'integer';
  if (column === 'cost_usd') return 'double precision';
  return ROLLUP_ADDED_COLUMNS.includes(column) ? 'bigint' : 'text';
}

export const usageDimensionRollupsMigration = {
  async up(db: Kysely<unknown>): Promise<void> {
    for (const column of FINE_INDEXED) {
      await db.schema.createIndex(`usage_daily_${column}_day`).on('usage_daily').columns([column, 'day']).execute();
    }
    for (const table of DIMENSION_ROLLUPS) {
      let create = db.schema.createTable(table.name).addColumn('day', 'integer', (c) => c.notNull());
      for (const column of table.keyColumns.slice(1)) create = create.addColumn(column, rollupColumnType(column), (c) => c.notNull());
      for (const column of ROLLUP_ADDED_COLUMNS) create = create.addColumn(column, rollupColumnType(column), (c) => c.notNull().defaultTo(0));
      await create.execute();
      await db.schema
        .createIndex(`${table.name}_unique`)
        .unique()
        .on(table.name)
        .columns([...table.keyColumns])
        .execute();
      await db.schema.createIndex(`${table.name}_account_day`).on(table.name).columns(['account_id', 'day']).execute();
      const keys = table.keyColumns.join(', ');
      await sql
        .raw(
          `INSERT INTO ${table.name} (${keys}, ${ROLLUP_ADDED_COLUMNS.join(', ')})
          SELECT ${keys}, ${ROLLUP_ADDED_COLUMNS.map((c) => `SUM(${c})`).join(', ')} FROM usage_daily GROUP BY ${keys}`,
        )
        .execute(db);
    }
  },
  async down(db: Kysely<unknown>): Promise<void> {
    for (const column of FINE_INDEXED) await db.schema.dropIndex(`usage_daily_${column}_day`).ifExists().execute();
    for (const table of DIMENSION_ROLLUPS) await db.schema.dropTable(table.name).execute();
  },
};
