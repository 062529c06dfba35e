/**
 * Where and within what the admin usage reports run, so that one report never holds every other
 * request: a SQLite file's reports on a worker thread with its own read-only connection
 * (`off-thread-usage-reports.ts`); PostgreSQL's on the pool as before (the driver does not block),
 * each statement under `statement_timeout`. Every report reads at most `maxRows` rollup rows
 * (`UsageReports`). An in-memory SQLite database (tests) cannot be opened from another thread:
 * its reports run on the event loop, bounded by the row count alone.
 */
import { type Kysely, sql } from 'kysely';
import { OffThreadUsageReports } from './off-thread-usage-reports.js';
import type { OpenedStore } from './open-store.js';
import type { Database } from './schema.js';
import { reportTooLarge, type UsageQuery, type UsageReport, UsageReports } from './usage-report.js';

export interface UsageReportLimits {
  maxRows: number;
  timeoutMs: number;
}

interface UsageReportRunner {
  summarize(query: UsageQuery): Promise<UsageReport>;
  close(): Promise<void>;
}

/** PostgreSQL's error code for a statement cancelled by `statement_timeout`. */
const QUERY_CANCELED = '57014';

function postgresReports(db: Kysely<Database>, limits: UsageReportLimits): UsageReportRunner {
  return {
    async summarize(query) {
      try {
        return await db.transaction().execute(async (trx) => {
          await sql`SELECT set_config('statement_timeout', ${String(limits.timeoutMs)}, true)`.execute(trx);
          return new UsageReports(trx, limits.maxRows).summarize(query);
        });
      } catch (error) {
        if ((error as { code?: unknown }).code === QUERY_CANCELED) throw reportTooLarge(`took longer than ${limits.timeoutMs} ms`);
        throw error;
      }
    },
    async close() {},
  };
}

export function usageReportRunner(store: OpenedStore, limits: UsageReportLimits): UsageReportRunner {
  if (store.dialect === 'postgres') return postgresReports(store.db, limits);
  if (store.sqlite && !store.sqlite.memory) return new OffThreadUsageReports({ path: store.sqlite.name, maxRows: limits.maxRows }, limits.timeoutMs);
  const inline = new UsageReports(store.db, limits.maxRows);
  return { summarize: (query) => inline.summarize(query), async close() {} };
}
