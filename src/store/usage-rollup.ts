/**
 * The daily usage rollup (`usage_daily`): one row per UTC day, account, key, model, channel,
 * surface and operation, with sums a report adds up and a latency histogram it merges. A batch
 * of usage rows is folded here in memory first (1,000 rows of a busy minute collapse to a few
 * rollup rows), then added to the table in the transaction that inserted them.
 */
import type { Insertable } from 'kysely';
import { LATENCY_BUCKETS, LATENCY_COLUMNS, latencyBucket } from './latency-histogram.js';
import type { UsageDailyTable } from './schema.js';

export const DAY_MS = 86_400_000;

export const ROLLUP_KEY_COLUMNS = ['day', 'account_id', 'key_id', 'model', 'channel', 'surface', 'operation'] as const;
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
  'cost_usd',
  'latency_ms_sum',
] as const;
export const ROLLUP_ADDED_COLUMNS: readonly string[] = [...ROLLUP_SUM_COLUMNS, ...LATENCY_COLUMNS];
export const ROLLUP_COLUMNS: readonly string[] = [...ROLLUP_KEY_COLUMNS, ...ROLLUP_ADDED_COLUMNS];

export type RollupRow = Insertable<UsageDailyTable>;

/** What the rollup needs of a usage row. */
export interface RollupSource {
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
  cost_usd: number;
  latency_ms: number;
}

export function dayOf(ms: number): number {
  return Math.floor(ms / DAY_MS);
}

/** Folds rows into one accumulator per rollup key (values in `ROLLUP_COLUMNS` order). */
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
    sums[8] += Number(row.cost_usd);
    sums[9] += latency;
    sums[ROLLUP_SUM_COLUMNS.length + latencyBucket(latency)] += 1;
  }

  get size(): number {
    return this.groups.size;
  }

  /**
   * Positional values, one array per rollup row, sorted by key: writers that upsert the same
   * rollup rows lock them in the same order, so two PostgreSQL writers cannot deadlock.
   */
  values(): (string | number)[][] {
    return [...this.groups.keys()].sort().map((id) => [...(this.keys.get(id) ?? []), ...(this.groups.get(id) ?? [])]);
  }

  rows(): RollupRow[] {
    return this.values().map((values) => Object.fromEntries(ROLLUP_COLUMNS.map((column, i) => [column, values[i]])) as unknown as RollupRow);
  }
}
