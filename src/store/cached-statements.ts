/**
 * better-sqlite3 behind Kysely with its statements kept: Kysely's SQLite driver prepares every
 * query anew, and parsing the SQL was most of what the background polls (task claims, webhook
 * deliveries, store revisions) cost each tick. Statements are kept by their SQL text, at most
 * `limit` of them (the query shapes are few; dynamic `IN (…)` lists are bounded by the clear).
 * Safe because the store never streams a query: a kept statement is never mid-iteration.
 */
import type { Database as BetterSqliteDatabase, Statement } from 'better-sqlite3';
import type { SqliteDatabase } from 'kysely';

const DEFAULT_LIMIT = 512;

export function withCachedStatements(sqlite: BetterSqliteDatabase, limit = DEFAULT_LIMIT): SqliteDatabase {
  const statements = new Map<string, Statement>();
  return {
    close: () => sqlite.close(),
    prepare(sql: string) {
      let statement = statements.get(sql);
      if (!statement) {
        if (statements.size >= limit) statements.clear();
        statement = sqlite.prepare(sql);
        statements.set(sql, statement);
      }
      return statement;
    },
  };
}
