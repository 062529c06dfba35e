/**
 * Worker thread entry: prepares usage reports from its own read-only connection to the gateway's
 * SQLite file, so a report's seconds of SQL never hold the event loop (`off-thread-usage-reports.ts`).
 * Posts `ready` once the database is open, then one answer per report asked, by id.
 */
import { parentPort, workerData } from 'node:worker_threads';
import SqliteDatabase from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { isGatewayError } from '../core/errors.js';
import type { Database } from './schema.js';
import { type UsageQuery, type UsageReport, UsageReports } from './usage-report.js';

export interface ReportWorkerData {
  path: string;
  maxRows: number;
}

interface ReportRequest {
  id: number;
  query: UsageQuery;
}

/** A GatewayError crosses the thread boundary as its parts; anything else as `internal` with its message for the log. */
export interface ReportFailure {
  kind: string;
  message: string;
  code?: string;
  param?: string;
}

export type ReportAnswer = { type: 'ready' } | { type: 'report'; id: number; report: UsageReport } | { type: 'failed'; id: number; failure: ReportFailure };

const { path, maxRows } = workerData as ReportWorkerData;
const sqlite = new SqliteDatabase(path, { readonly: true, fileMustExist: true });
sqlite.pragma('busy_timeout = 5000');
const reports = new UsageReports(new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) }), maxRows);

function failureOf(error: unknown): ReportFailure {
  if (isGatewayError(error)) return { kind: error.kind, message: error.message, code: error.code, param: error.param };
  return { kind: 'internal', message: error instanceof Error ? error.message : String(error) };
}

parentPort?.on('message', async ({ id, query }: ReportRequest) => {
  let answer: ReportAnswer;
  try {
    answer = { type: 'report', id, report: await reports.summarize(query) };
  } catch (error) {
    answer = { type: 'failed', id, failure: failureOf(error) };
  }
  parentPort?.postMessage(answer);
});
parentPort?.postMessage({ type: 'ready' } satisfies ReportAnswer);
