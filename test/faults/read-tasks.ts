/** The task rows, their ledger and the usage rows a gateway left in its database (SQLite file or PostgreSQL), read directly. */
import Database from 'better-sqlite3';
import pg from 'pg';

export interface TaskSeen {
  id: string;
  status: string;
  upstream_id: string | null;
  /** The prompt the client sent (from the stored request). */
  prompt: string;
  error_code: string | null;
  price_nusd: number;
  lease_owner: string | null;
  lease_until: number;
  /** Media ids of the stored result. */
  media: string[];
}

export interface LedgerSeen {
  task_id: string;
  kind: string;
  amount_nusd: number;
}

export interface UsageRowSeen {
  request_id: string;
  outcome: string;
  cost_nusd: number;
}

export interface TasksState {
  tasks: TaskSeen[];
  ledger: LedgerSeen[];
  usage: UsageRowSeen[];
}

const TASKS = 'select id, status, upstream_id, request, result, error_code, price_nusd, lease_owner, lease_until from tasks order by created_at';
const LEDGER = 'select task_id, kind, amount_nusd from task_ledger order by id';
const USAGE = 'select request_id, outcome, cost_nusd from usage_records';

export type Raw = Record<string, unknown>;

export async function readTasks(databaseUrl: string): Promise<TasksState> {
  const [tasks, ledger, usage] = await query(databaseUrl, [TASKS, LEDGER, USAGE]);
  return {
    tasks: tasks.map((row) => ({
      id: String(row.id),
      status: String(row.status),
      upstream_id: (row.upstream_id as string | null) ?? null,
      prompt: String((JSON.parse(String(row.request)) as { prompt?: string }).prompt ?? ''),
      error_code: (row.error_code as string | null) ?? null,
      price_nusd: Number(row.price_nusd),
      lease_owner: (row.lease_owner as string | null) ?? null,
      lease_until: Number(row.lease_until),
      media: row.result === null ? [] : ((JSON.parse(String(row.result)) as { media?: Array<{ mediaId: string }> }).media ?? []).map((m) => m.mediaId),
    })),
    ledger: ledger.map((row) => ({ task_id: String(row.task_id), kind: String(row.kind), amount_nusd: Number(row.amount_nusd) })),
    usage: usage.map((row) => ({ request_id: String(row.request_id), outcome: String(row.outcome), cost_nusd: Number(row.cost_nusd) })),
  };
}

/** Runs read-only statements against a gateway's database; answers their rows, in order. */
export async function query(databaseUrl: string, statements: string[]): Promise<Raw[][]> {
  if (databaseUrl.startsWith('sqlite:')) {
    const db = new Database(databaseUrl.slice('sqlite:'.length), { readonly: true, fileMustExist: true });
    try {
      return statements.map((statement) => db.prepare(statement).all() as Raw[]);
    } finally {
      db.close();
    }
  }
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const results: Raw[][] = [];
    for (const statement of statements) results.push((await client.query(statement)).rows as Raw[]);
    return results;
  } finally {
    await client.end();
  }
}
