import { sql, type Kysely } from 'kysely';
import { DIMENSION_ROLLUPS, ROLLUP_ADDED_COLUMNS, rollupColumnType } from '../usage-rollup.js';

/**
 * The per-dimension daily rollups (`usage_daily_by_key`, `…_model`, `…_channel`, `…_surface`,
 * see `usage-rollup.ts`), filled from `usage_daily`, which holds every dimension; from here on the
 * usage writer keeps them up to date with it. The unique key leads with the day (a report's range);
 * a second index serves one account's days (a member's view). Reports that still read
 * `usage_daily` filter by at least one dimension: a (dimension, day) index for each (008 made the key's).
 */
const FINE_INDEXED = ['model', 'channel', 'surface'];

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
