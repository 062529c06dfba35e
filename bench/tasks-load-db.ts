/**
 * The load run's read-only view of the gateway's database, from outside its process: task
 * counts while the run goes (one grouped query, not a fetch per task), the ended rows at the
 * end, and for PostgreSQL the server's own counters of commits and tuples written.
 */
import Database from 'better-sqlite3';
import pg from 'pg';
import type { EndedTask, OtherRows } from './tasks-load-figures.js';

export interface TaskCounts {
  byStatus: Record<string, number>;
  /** Active tasks whose next poll is more than half a second overdue (over two poller ticks): its backlog. */
  overdue: number;
}

/** PostgreSQL's counters for the database (pg_stat_database); undefined for SQLite. */
export interface ServerCounters {
  commits: number;
  inserted: number;
  updated: number;
}

export interface DbProbe {
  counts(now: number): Promise<TaskCounts>;
  ended(): Promise<EndedTask[]>;
  otherRows(): Promise<OtherRows>;
  serverCounters(): Promise<ServerCounters | undefined>;
  /** Statements this probe ran (each its own transaction), to take out of the server's commit count. */
  readonly statements: number;
  close(): Promise<void>;
}

const OVERDUE_MS = 500;
const COUNTS_SQL = 'SELECT status, COUNT(*) AS n FROM tasks GROUP BY status';
const OVERDUE_SQL = "SELECT COUNT(*) AS n FROM tasks WHERE status IN ('submitted', 'running') AND next_poll_at < $1 AND lease_until <= $2";
const ENDED_SQL = 'SELECT status, created_at, poll_count, finished_at, upstream_data, upstream_id FROM tasks';
const OTHER_SQL =
  'SELECT (SELECT COUNT(*) FROM task_ledger) AS ledger, (SELECT COUNT(*) FROM usage_records) AS usage_rows, (SELECT COUNT(*) FROM webhook_deliveries) AS webhooks';

interface EndedRow {
  status: string;
  created_at: number | string;
  poll_count: number | string;
  finished_at: number | string | null;
  upstream_data: string | null;
  upstream_id: string | null;
}

function toEnded(row: EndedRow): EndedTask {
  return {
    status: row.status,
    createdAt: Number(row.created_at),
    pollCount: Number(row.poll_count),
    finishedAt: row.finished_at === null ? null : Number(row.finished_at),
    upstreamData: row.upstream_data,
    submitted: row.upstream_id !== null,
  };
}

function toCounts(rows: Array<{ status: string; n: number | string }>, overdue: number | string): TaskCounts {
  return { byStatus: Object.fromEntries(rows.map((row) => [row.status, Number(row.n)])), overdue: Number(overdue) };
}

/** Reads the gateway's SQLite file through a second, read-only connection (WAL: it never blocks the writer). */
export function sqliteProbe(path: string): DbProbe {
  const db = new Database(path, { readonly: true, fileMustExist: true });
  const counts = db.prepare(COUNTS_SQL);
  const overdue = db.prepare(OVERDUE_SQL.replace('$1', '?').replace('$2', '?'));
  return {
    async counts(now) {
      return toCounts(counts.all() as Array<{ status: string; n: number }>, (overdue.get(now - OVERDUE_MS, now) as { n: number }).n);
    },
    async ended() {
      return (db.prepare(ENDED_SQL).all() as EndedRow[]).map(toEnded);
    },
    async otherRows() {
      const row = db.prepare(OTHER_SQL).get() as { ledger: number; usage_rows: number; webhooks: number };
      return { ledger: row.ledger, usage: row.usage_rows, webhooks: row.webhooks };
    },
    async serverCounters() {
      return undefined;
    },
    statements: 0,
    async close() {
      db.close();
    },
  };
}

export async function postgresProbe(url: string): Promise<DbProbe> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  let statements = 0;
  // biome-ignore lint/suspicious/noExplicitAny: rows are read field by field below
  const query = (text: string, values?: unknown[]): Promise<pg.QueryResult<any>> => {
    statements++;
    return client.query(text, values);
  };
  return {
    get statements() {
      return statements;
    },
    async counts(now) {
      const rows = await query(COUNTS_SQL);
      const late = await query(OVERDUE_SQL, [now - OVERDUE_MS, now]);
      return toCounts(rows.rows, late.rows[0].n);
    },
    async ended() {
      return (await query(ENDED_SQL)).rows.map(toEnded);
    },
    async otherRows() {
      const row = (await query(OTHER_SQL)).rows[0];
      return { ledger: Number(row.ledger), usage: Number(row.usage_rows), webhooks: Number(row.webhooks) };
    },
    async serverCounters() {
      // The statistics are flushed about once a second; ask for a fresh snapshot.
      await query('SELECT pg_stat_clear_snapshot()');
      const row = (await query('SELECT xact_commit, tup_inserted, tup_updated FROM pg_stat_database WHERE datname = current_database()')).rows[0];
      return { commits: Number(row.xact_commit), inserted: Number(row.tup_inserted), updated: Number(row.tup_updated) };
    },
    async close() {
      await client.end();
    },
  };
}
