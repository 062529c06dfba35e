/** The usage rows a gateway left in its database (SQLite file or PostgreSQL), read directly. */
import Database from 'better-sqlite3';
import pg from 'pg';

export interface UsageSeen {
  request_id: string;
  key_id: string;
  surface: string;
  operation: string;
  model: string;
  outcome: string;
  stream: number;
  input_tokens: number;
  output_tokens: number;
}

const QUERY = 'select request_id, key_id, surface, operation, model, outcome, stream, input_tokens, output_tokens from usage_records';

export async function readUsage(databaseUrl: string): Promise<UsageSeen[]> {
  if (databaseUrl.startsWith('sqlite:')) {
    const db = new Database(databaseUrl.slice('sqlite:'.length), { readonly: true });
    try {
      return db.prepare(QUERY).all() as UsageSeen[];
    } finally {
      db.close();
    }
  }
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const result = await client.query(QUERY);
    return result.rows.map((row) => ({
      ...row,
      stream: Number(row.stream),
      input_tokens: Number(row.input_tokens),
      output_tokens: Number(row.output_tokens),
    })) as UsageSeen[];
  } finally {
    await client.end();
  }
}

/** Rows by request id, each id with every row it has (so a duplicate shows). */
export function byRequestId(rows: UsageSeen[]): Map<string, UsageSeen[]> {
  const map = new Map<string, UsageSeen[]>();
  for (const row of rows) map.set(row.request_id, [...(map.get(row.request_id) ?? []), row]);
  return map;
}
