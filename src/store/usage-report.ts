/**
 * Usage and spend reports, read from the daily rollups so they cost the same at ten million
 * usage rows as at ten: from the smallest rollup table that holds every dimension the report
 * groups or filters by (`rollupTableFor`); sums per group in SQL, latency percentiles from the merged
 * histograms in JS. Also the raw recent rows, paged newest first. Everything is bounded: at most
 * 366 days, at most `MAX_GROUPS` groups, at most 200 raw rows a page, and a report reads at most
 * `maxRows` rollup rows (counted first, by a scan that stops past the bound): a larger one is
 * refused before it costs anything (`usage-report-runner.ts` also bounds its time).
 */
import { type Kysely, type RawBuilder, sql } from 'kysely';
import { type ErrorType, isErrorType } from '../core/error-type.js';
import { GatewayError } from '../core/errors.js';
import { nusdToUsd } from '../core/money.js';
import { LATENCY_COLUMNS, percentilesOf } from './latency-histogram.js';
import type { Database } from './schema.js';
import { DAY_MS, DIMENSION_ROLLUPS, dayOf, FINE_ROLLUP, ROLLUP_SUM_COLUMNS, type RollupTable } from './usage-rollup.js';

export const USAGE_GROUP_BYS = ['day', 'key', 'account', 'model', 'channel', 'surface'] as const;
export type UsageGroupBy = (typeof USAGE_GROUP_BYS)[number];
export const USAGE_FILTERS = ['key', 'account', 'model', 'channel', 'surface'] as const;
export type UsageFilters = Partial<Record<(typeof USAGE_FILTERS)[number], string>>;

const MAX_RANGE_DAYS = 366;
const MAX_GROUPS = 5000;
/** The error of a report that would cost too much: the caller's 413, saying what to change. */
export function reportTooLarge(why: string): GatewayError {
  return new GatewayError(
    'request_too_large',
    `This usage report ${why}: narrow the date range, add a filter (key, model, channel, surface), or group by day, account or surface.`,
    { code: 'report_too_large' },
  );
}

const COLUMN_OF: Record<UsageGroupBy, string> = {
  day: 'day',
  key: 'key_id',
  account: 'account_id',
  model: 'model',
  channel: 'channel',
  surface: 'surface',
};

export interface UsageQuery {
  /** Unix ms; the report covers whole UTC days, from the day holding `from` to the day holding `to`. */
  from: number;
  to: number;
  groupBy: UsageGroupBy;
  filters?: UsageFilters;
  /** When set, only this account's usage is seen, whatever the filters say (a member's view). */
  accountScope?: string;
}

export interface UsageReportRow {
  group: string;
  label: string;
  requests: number;
  errors: number;
  inputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
  outputTokens: number;
  reasoningTokens: number;
  units: number;
  /** Calls to a model without a catalog price: their cost is unknown, not zero. */
  unpriced: number;
  /** The cost in nUSD (`core/money.ts`): the exact figure, the one to add up. */
  costNusd: number;
  /** `costNusd` in USD, for display only. */
  costUsd: number;
  latencyMs: { p50: number | null; p95: number | null; p99: number | null };
}

export interface UsageReport {
  /** The range actually covered: start of the first day, end of the last (exclusive), Unix ms. */
  from: number;
  to: number;
  groupBy: UsageGroupBy;
  totals: UsageReportRow;
  rows: UsageReportRow[];
  /** More than `MAX_GROUPS` groups matched: `rows` holds the costliest; `totals` counts them all. */
  truncated: boolean;
}

/** Sums of one group, in `ROLLUP_SUM_COLUMNS` then `LATENCY_COLUMNS` order. */
interface Sums {
  group: string;
  values: number[];
}

const SUMMED = [...ROLLUP_SUM_COLUMNS, ...LATENCY_COLUMNS];

function dayLabel(day: number): string {
  return new Date(day * DAY_MS).toISOString().slice(0, 10);
}

/** Checks a range and turns it into UTC day numbers; a bad range is the caller's 400. */
function dayRange(from: number, to: number): { fromDay: number; toDay: number } {
  if (!Number.isFinite(from) || !Number.isFinite(to) || from < 0 || to < 0) {
    throw new GatewayError('invalid_request', '`from` and `to` must be Unix milliseconds.', { code: 'invalid_range', param: 'from' });
  }
  if (to < from) throw new GatewayError('invalid_request', '`to` must not be before `from`.', { code: 'invalid_range', param: 'to' });
  const fromDay = dayOf(from);
  const toDay = dayOf(to);
  if (toDay - fromDay + 1 > MAX_RANGE_DAYS) {
    throw new GatewayError('invalid_request', `A usage report covers at most ${MAX_RANGE_DAYS} days.`, { code: 'invalid_range', param: 'from' });
  }
  return { fromDay, toDay };
}

function toRow(sums: Sums, label: string): UsageReportRow {
  const v = sums.values;
  return {
    group: sums.group,
    label,
    requests: v[0],
    errors: v[1],
    inputTokens: v[2],
    outputTokens: v[3],
    cacheReadTokens: v[4],
    cacheWriteTokens: v[5],
    reasoningTokens: v[6],
    units: v[7],
    unpriced: v[10],
    costNusd: v[8],
    costUsd: nusdToUsd(v[8]),
    latencyMs: percentilesOf(v.slice(ROLLUP_SUM_COLUMNS.length)),
  };
}

function emptySums(group: string): Sums {
  return { group, values: new Array(SUMMED.length).fill(0) };
}

const SMALLEST_ROLLUP = DIMENSION_ROLLUPS[DIMENSION_ROLLUPS.length - 1];

/**
 * The rollup table a report reads: every table has the day and the account, so the choice turns
 * on the other columns it groups or filters by. None: the smallest table (the surface one); one:
 * that dimension's table; two or more: the fine `usage_daily`.
 */
export function rollupTableFor(query: Pick<UsageQuery, 'groupBy' | 'filters'>): RollupTable {
  const needed = neededColumns(query);
  if (needed.size === 0) return SMALLEST_ROLLUP;
  if (needed.size > 1) return FINE_ROLLUP;
  const [column] = needed;
  return DIMENSION_ROLLUPS.find((table) => table.dimension === column) ?? FINE_ROLLUP;
}

/** The columns besides day and account that a report groups or filters by. */
export function neededColumns(query: Pick<UsageQuery, 'groupBy' | 'filters'>): Set<string> {
  const needed = new Set<string>();
  if (query.groupBy !== 'day' && query.groupBy !== 'account') needed.add(COLUMN_OF[query.groupBy]);
  for (const name of USAGE_FILTERS) if (name !== 'account' && query.filters?.[name] !== undefined) needed.add(COLUMN_OF[name]);
  return needed;
}

export class UsageReports {
  constructor(
    private readonly db: Kysely<Database>,
    /** Rollup rows a report may read (`limits.usageReportMaxRows`); unbounded when absent (benchmarks). */
    private readonly maxRows?: number,
  ) {}

  /** `table` forces a rollup table that holds every needed column (tests compare tables with it). */
  async summarize(query: UsageQuery, table: RollupTable = rollupTableFor(query)): Promise<UsageReport> {
    const { fromDay, toDay } = dayRange(query.from, query.to);
    for (const column of neededColumns(query)) if (!table.keyColumns.includes(column)) throw new Error(`${table.name} has no ${column}`);
    const source = sql.table(table.name);
    const where = this.conditions(fromDay, toDay, query);
    await this.checkCost(source, where);
    const column = COLUMN_OF[query.groupBy];
    // Days in order (a chart's series); any other grouping costliest first.
    const order = query.groupBy === 'day' ? sql`grp ASC` : sql`sum(cost_nusd) DESC, sum(requests) DESC, grp ASC`;
    const result = await sql<Record<string, unknown>>`SELECT ${sql.ref(column)} AS grp, ${this.sums()} FROM ${source}
      WHERE ${where} GROUP BY ${sql.ref(column)} ORDER BY ${order} LIMIT ${MAX_GROUPS + 1}`.execute(this.db);
    let groups = result.rows.map(readSums);
    const truncated = groups.length > MAX_GROUPS;
    if (truncated) groups = groups.slice(0, MAX_GROUPS);
    let totals: Sums;
    if (truncated) {
      const all = await sql<Record<string, unknown>>`SELECT '' AS grp, ${this.sums()} FROM ${source} WHERE ${where}`.execute(this.db);
      totals = readSums(all.rows[0]);
    } else {
      totals = emptySums('');
      for (const group of groups) for (let i = 0; i < SUMMED.length; i++) totals.values[i] += group.values[i];
    }
    if (query.groupBy === 'day') groups = fillDays(groups, fromDay, toDay).map((g) => ({ ...g, group: dayLabel(Number(g.group)) }));
    const labels = await this.labels(query.groupBy, groups);
    return {
      from: fromDay * DAY_MS,
      to: (toDay + 1) * DAY_MS,
      groupBy: query.groupBy,
      totals: toRow(totals, 'Total'),
      rows: groups.map((group) => toRow(group, labels.get(group.group) ?? group.group)),
      truncated,
    };
  }

  /** Raw usage rows, newest first: at most `limit` (≤ 201, a page and one to tell whether more follow), below `beforeId`. */
  async records(query: RecordsQuery): Promise<UsageRecordView[]> {
    const limit = Math.min(Math.max(1, Math.floor(query.limit)), MAX_RECORDS_PAGE + 1);
    let select = this.db.selectFrom('usage_records').selectAll().orderBy('id', 'desc').limit(limit);
    if (query.beforeId !== undefined) select = select.where('id', '<', query.beforeId);
    const filters = query.filters ?? {};
    if (filters.key !== undefined) select = select.where('key_id', '=', filters.key);
    if (filters.model !== undefined) select = select.where('model', '=', filters.model);
    if (filters.channel !== undefined) select = select.where('channel', '=', filters.channel);
    if (filters.surface !== undefined) select = select.where('surface', '=', filters.surface);
    if (query.errorType !== undefined) select = select.where('error_type', '=', query.errorType);
    for (const account of [filters.account, query.accountScope]) {
      if (account === undefined) continue;
      select = account === '' ? select.where('account_id', 'is', null) : select.where('account_id', '=', account);
    }
    const rows = await select.execute();
    return rows.map((row) => ({
      id: Number(row.id),
      requestId: row.request_id,
      createdAt: Number(row.created_at),
      accountId: row.account_id ?? null,
      keyId: row.key_id,
      surface: row.surface,
      operation: row.operation,
      model: row.model,
      channel: row.channel,
      provider: row.provider,
      upstreamModel: row.upstream_model,
      outcome: row.outcome,
      errorType: isErrorType(row.error_type) ? row.error_type : null,
      stream: Number(row.stream) === 1,
      inputTokens: Number(row.input_tokens),
      cacheReadTokens: Number(row.cache_read_tokens),
      cacheWriteTokens: Number(row.cache_write_tokens),
      outputTokens: Number(row.output_tokens),
      reasoningTokens: Number(row.reasoning_tokens),
      units: Number(row.units),
      unpriced: Number(row.unpriced ?? 0) === 1,
      costNusd: Number(row.cost_nusd),
      costUsd: nusdToUsd(Number(row.cost_nusd)),
      latencyMs: Number(row.latency_ms),
    }));
  }

  /** Refuses a report that would read more than `maxRows` rollup rows; the count stops one row past the bound. */
  private async checkCost(source: RawBuilder<unknown>, where: RawBuilder<unknown>): Promise<void> {
    if (this.maxRows === undefined) return;
    const counted = await sql<{
      n: number | string;
    }>`SELECT count(*) AS n FROM (SELECT 1 FROM ${source} WHERE ${where} LIMIT ${this.maxRows + 1}) AS bounded`.execute(this.db);
    if (Number(counted.rows[0]?.n ?? 0) > this.maxRows) throw reportTooLarge(`would read more than ${this.maxRows} daily rollup rows`);
  }

  private sums(): RawBuilder<unknown> {
    return sql.join(SUMMED.map((c) => sql`sum(${sql.ref(c)}) AS ${sql.ref(c)}`));
  }

  private conditions(fromDay: number, toDay: number, query: UsageQuery): RawBuilder<unknown> {
    const parts = [sql`day >= ${fromDay}`, sql`day <= ${toDay}`];
    for (const name of ['key', 'account', 'model', 'channel', 'surface'] as const) {
      const value = query.filters?.[name];
      if (value !== undefined) parts.push(sql`${sql.ref(COLUMN_OF[name])} = ${value}`);
    }
    if (query.accountScope !== undefined) parts.push(sql`account_id = ${query.accountScope}`);
    return sql.join(parts, sql` AND `);
  }

  /** What a person reads for each group: a key's name, an account's email, a day's date. */
  private async labels(groupBy: UsageGroupBy, groups: Sums[]): Promise<Map<string, string>> {
    const labels = new Map<string, string>();
    for (const { group } of groups) {
      if (groupBy === 'day') labels.set(group, group);
      else if (group === '') labels.set(group, groupBy === 'account' ? '(no account)' : '(none)');
      else if (group === 'master' && groupBy === 'key') labels.set(group, 'master key');
    }
    const ids = groups.map((g) => g.group).filter((id) => id !== '' && !labels.has(id));
    for (let i = 0; i < ids.length; i += 500) {
      const chunk = ids.slice(i, i + 500);
      if (groupBy === 'key') {
        for (const row of await this.db.selectFrom('api_keys').select(['id', 'name']).where('id', 'in', chunk).execute()) labels.set(row.id, row.name);
      } else if (groupBy === 'account') {
        for (const row of await this.db.selectFrom('accounts').select(['id', 'email']).where('id', 'in', chunk).execute()) labels.set(row.id, row.email);
      }
    }
    return labels;
  }
}

const MAX_RECORDS_PAGE = 200;

interface RecordsQuery {
  limit: number;
  beforeId?: number;
  filters?: UsageFilters;
  /** Only rows of failures of this type (the rollups have no error type: raw rows only). */
  errorType?: ErrorType;
  accountScope?: string;
}

interface UsageRecordView {
  id: number;
  requestId: string;
  createdAt: number;
  accountId: string | null;
  keyId: string;
  surface: string;
  operation: string;
  model: string;
  channel: string;
  provider: string;
  upstreamModel: string;
  outcome: string;
  /** Whose fault the failure was (`core/error-type.ts`); null for a success and for rows from before error types. */
  errorType: ErrorType | null;
  stream: boolean;
  inputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
  outputTokens: number;
  reasoningTokens: number;
  units: number;
  /** The model had no price: `costNusd` is 0 for want of one. */
  unpriced: boolean;
  /** nUSD. */
  costNusd: number;
  /** `costNusd` in USD, for display only. */
  costUsd: number;
  latencyMs: number;
}

function readSums(row: Record<string, unknown> | undefined): Sums {
  // PostgreSQL answers sum(bigint) as numeric (a string); an empty set sums to null.
  return { group: String(row?.grp ?? ''), values: SUMMED.map((c) => Number(row?.[c] ?? 0)) };
}

/** Every day of the range, in order, with zeros for days without usage (a chart's x axis). */
function fillDays(groups: Sums[], fromDay: number, toDay: number): Sums[] {
  const byDay = new Map(groups.map((g) => [Number(g.group), g]));
  const out: Sums[] = [];
  for (let day = fromDay; day <= toDay; day++) out.push(byDay.get(day) ?? emptySums(String(day)));
  return out;
}
