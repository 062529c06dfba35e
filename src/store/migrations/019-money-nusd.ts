import { sql, type Kysely } from 'kysely';
import type { StoreDialect } from '../store-dialect.js';

/** Every float money column and the integer nUSD column that replaces it. */
const MONEY_COLUMNS: readonly { table: string; from: string; to: string }[] = [
  { table: 'usage_records', from: 'cost_usd', to: 'cost_nusd' },
  { table: 'usage_daily', from: 'cost_usd', to: 'cost_nusd' },
  { table: 'usage_daily_by_key', from: 'cost_usd', to: 'cost_nusd' },
  { table: 'usage_daily_by_model', from: 'cost_usd', to: 'cost_nusd' },
  { table: 'usage_daily_by_channel', from: 'cost_usd', to: 'cost_nusd' },
  { table: 'usage_daily_by_surface', from: 'cost_usd', to: 'cost_nusd' },
  { table: 'tasks', from: 'price_usd', to: 'price_nusd' },
  { table: 'task_ledger', from: 'amount_usd', to: 'amount_nusd' },
];

/**
 * Money becomes integers: each float USD column (a usage row's cost, the rollups' sums, a task's
 * price, a ledger entry's amount) is replaced by a BIGINT of nano-dollars (`core/money.ts`),
 * `round(usd × 10⁹)`. The rows written so far held `nUSD / 10⁹` (or sums of those), so this gives
 * each row its integer back; a rollup's float sum is rounded once, off by at most a few nUSD,
 * which is far below a cent. PostgreSQL rounds through NUMERIC (the double's 15 significant
 * digits, so `0.000012345` is 12345, not 12344.999…); SQLite rounds the double half away from
 * zero. The float columns are dropped on both (SQLite ≥ 3.35 drops a column in place); the new
 * columns keep a default of 0, which SQLite cannot remove without rebuilding the table.
 */
export function moneyNusdMigration(dialect: StoreDialect) {
  const nusdOf = (column: string) =>
    dialect === 'postgres' ? `CAST(ROUND(CAST(${column} AS NUMERIC) * 1000000000) AS BIGINT)` : `CAST(ROUND(${column} * 1000000000) AS INTEGER)`;
  const usdOf = (column: string) => `CAST(${column} AS DOUBLE PRECISION) / 1000000000`;
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      for (const { table, from, to } of MONEY_COLUMNS) {
        await db.schema
          .alterTable(table)
          .addColumn(to, 'bigint', (c) => c.notNull().defaultTo(0))
          .execute();
        await sql.raw(`UPDATE ${table} SET ${to} = ${nusdOf(from)}`).execute(db);
        await db.schema.alterTable(table).dropColumn(from).execute();
      }
    },
    async down(db: Kysely<unknown>): Promise<void> {
      for (const { table, from, to } of MONEY_COLUMNS) {
        await db.schema
          .alterTable(table)
          .addColumn(from, 'double precision', (c) => c.notNull().defaultTo(0))
          .execute();
        await sql.raw(`UPDATE ${table} SET ${from} = ${usdOf(to)}`).execute(db);
        await db.schema.alterTable(table).dropColumn(to).execute();
      }
    },
  };
}
