/**
 * The daily usage rollups. `usage_daily`: one row per UTC day, account, key, model, channel,
 * surface and operation, with sums a report adds up and a latency histogram it merges. Beside it
 * one small table per dimension (`usage_daily_by_key`, `…_model`, `…_channel`, `…_surface`),
 * keyed by (day, account, that dimension) with the same measures: a report that needs at most one
 * dimension besides the account reads a few hundred rows a day instead of thousands. A batch of
 * usage rows is folded here in memory first (1,000 rows of a busy minute collapse to a few rollup
 * rows), then added to every table in the transaction that inserted them.
 */
import { LATENCY_BUCKETS, LATENCY_COLUMNS, latencyBucket } from './latency-histogram.js';

export const DAY_MS = 86_400_000;

const ROLLUP_KEY_COLUMNS = ['day', 'account_id', 'key_id', 'model', 'channel', 'surface', 'operation'] as const;
/** Summed columns besides the histogram. */
export const ROLLUP_SUM_COLUMNS = [
  'requests',
  'errors',
  'input_tokens',
  'output_tokens',
  'cache_read_tokens',
  'cache_write_tokens',
  'reasoning_tokens',
  'units',
  'cost_nusd',
  'latency_ms_sum',
  /** Rows of calls to a model without a price (migration 024). */
  'unpriced',
] as const;
export const ROLLUP_ADDED_COLUMNS: readonly string[] = [...ROLLUP_SUM_COLUMNS, ...LATENCY_COLUMNS];

/** A rollup table: its name and the key columns it sums over (some of `ROLLUP_KEY_COLUMNS`, in their order). */
export interface RollupTable {
  name: 'usage_daily' | `usage_daily_by_${'key' | 'model' | 'channel' | 'surface'}`;
  keyColumns: readonly string[];
  /** The one column besides day and account (none for the fine table). */
  dimension?: 'key_id' | 'model' | 'channel' | 'surface';
}

export const FINE_ROLLUP: RollupTable = { name: 'usage_daily', keyColumns: ROLLUP_KEY_COLUMNS };

function dimensionRollup(name: RollupTable['name'], dimension: NonNullable<RollupTable['dimension']>): RollupTable {
  return { name, keyColumns: ['day', 'account_id', dimension], dimension };
}

/** The per-dimension tables (migration 011), smallest last: a gateway has a handful of surfaces. */
export const DIMENSION_ROLLUPS: readonly RollupTable[] = [
  dimensionRollup('usage_daily_by_key', 'key_id'),
  dimensionRollup('usage_daily_by_model', 'model'),
  dimensionRollup('usage_daily_by_channel', 'channel'),
  dimensionRollup('usage_daily_by_surface', 'surface'),
];

/** Every rollup table, in the order a writer upserts them (one fixed order: no lock cycles between writers). */
export const ROLLUP_TABLES: readonly RollupTable[] = [FINE_ROLLUP, ...DIMENSION_ROLLUPS];

/** The upsert of one rollup row into `table` (positional `?` parameters: key columns, then `ROLLUP_ADDED_COLUMNS`). */
export function rollupUpsertSql(table: RollupTable): string {
  const columns = [...table.keyColumns, ...ROLLUP_ADDED_COLUMNS];
  return `INSERT INTO ${table.name} (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})
  ${addOnConflict(table)}`;
}

/** The conflict clause of both upserts: a rollup row already there gets the new sums added. */
function addOnConflict(table: RollupTable): string {
  return `ON CONFLICT (${table.keyColumns.join(', ')}) DO UPDATE SET ${ROLLUP_ADDED_COLUMNS.map((c) => `${c} = ${table.name}.${c} + excluded.${c}`).join(', ')}`;
}

/** The SQL type of a rollup column (migrations 008, 011 and 019): every measure, money too (nUSD), is an integer. */
export function rollupColumnType(column: string): 'integer' | 'text' | 'bigint' {
  if (column === 'day') return 'integer';
  return (ROLLUP_KEY_COLUMNS as readonly string[]).includes(column) ? 'text' : 'bigint';
}

/**
 * PostgreSQL: the upsert of all of a batch's rows into `table` in one fixed statement, one array
 * parameter per column (`$1` … in `table.keyColumns`, then `ROLLUP_ADDED_COLUMNS` order). Rows go
 * in array order, so the sorted order of `RollupBatch.values` is the lock order.
 */
export function rollupUnnestUpsertSql(table: RollupTable): string {
  const columns = [...table.keyColumns, ...ROLLUP_ADDED_COLUMNS];
  return `INSERT INTO ${table.name} (${columns.join(', ')})
  SELECT * FROM unnest(${columns.map((c, i) => `$${i + 1}::${rollupColumnType(c)}[]`).join(', ')})
  ${addOnConflict(table)}`;
}

/** What the rollup needs of a usage row. */
interface RollupSource {
  created_at: number;
  account_id?: string | null;
  key_id: string;
  model: string;
  channel: string;
  surface: string;
  operation: string;
  outcome: string;
  input_tokens: number;
  output_tokens: number;
  cache_read_tokens: number;
  cache_write_tokens: number;
  reasoning_tokens: number;
  units?: number;
  cost_nusd: number;
  latency_ms: number;
  unpriced?: number | null;
}

export function dayOf(ms: number): number {
  return Math.floor(ms / DAY_MS);
}

/** Folds rows into one accumulator per fine rollup key (sums in `ROLLUP_ADDED_COLUMNS` order). */
export class RollupBatch {
  private readonly groups = new Map<string, number[]>();
  private readonly keys = new Map<string, (string | number)[]>();

  add(row: RollupSource): void {
    const day = dayOf(Number(row.created_at));
    const account = row.account_id ?? '';
    const id = `${day}\u0000${account}\u0000${row.key_id}\u0000${row.model}\u0000${row.channel}\u0000${row.surface}\u0000${row.operation}`;
    let sums = this.groups.get(id);
    if (!sums) {
      sums = new Array(ROLLUP_SUM_COLUMNS.length + LATENCY_BUCKETS).fill(0);
      this.groups.set(id, sums);
      this.keys.set(id, [day, account, row.key_id, row.model, row.channel, row.surface, row.operation]);
    }
    const latency = Number(row.latency_ms);
    sums[0] += 1;
    if (row.outcome !== 'ok') sums[1] += 1;
    sums[2] += Number(row.input_tokens);
    sums[3] += Number(row.output_tokens);
    sums[4] += Number(row.cache_read_tokens);
    sums[5] += Number(row.cache_write_tokens);
    sums[6] += Number(row.reasoning_tokens);
    sums[7] += Number(row.units ?? 0);
    sums[8] += Number(row.cost_nusd);
    sums[9] += latency;
    if (Number(row.unpriced ?? 0) > 0) sums[10] += 1;
    sums[ROLLUP_SUM_COLUMNS.length + latencyBucket(latency)] += 1;
  }

  get size(): number {
    return this.groups.size;
  }

  /**
   * Positional values (`table.keyColumns`, then `ROLLUP_ADDED_COLUMNS`), one array per row of
   * `table`, sorted by key: writers that upsert the same rollup rows lock them in the same order,
   * so two PostgreSQL writers cannot deadlock. A coarser table's rows are folded from the fine
   * groups, so every table sees exactly the same rows.
   */
  values(table: RollupTable = FINE_ROLLUP): (string | number)[][] {
    if (table.keyColumns === ROLLUP_KEY_COLUMNS) {
      return [...this.groups.keys()].sort().map((id) => [...(this.keys.get(id) ?? []), ...(this.groups.get(id) ?? [])]);
    }
    const positions = table.keyColumns.map((column) => (ROLLUP_KEY_COLUMNS as readonly string[]).indexOf(column));
    if (positions.includes(-1)) throw new Error(`rollup table ${table.name} has a key column the fine rollup lacks`);
    const folded = new Map<string, (string | number)[]>();
    for (const [id, sums] of this.groups) {
      const fine = this.keys.get(id) ?? [];
      const key = positions.map((p) => fine[p]);
      const coarseId = key.join('\u0000');
      const row = folded.get(coarseId);
      if (!row) folded.set(coarseId, [...key, ...sums]);
      else for (let i = 0; i < sums.length; i++) (row[key.length + i] as number) += sums[i];
    }
    return [...folded.keys()].sort().map((id) => folded.get(id) ?? []);
  }

  rows(table: RollupTable = FINE_ROLLUP): Record<string, string | number>[] {
    const columns = [...table.keyColumns, ...ROLLUP_ADDED_COLUMNS];
    return this.values(table).map((values) => Object.fromEntries(columns.map((column, i) => [column, values[i]])));
  }
}
