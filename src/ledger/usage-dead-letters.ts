/**
 * Usage rows the database refused for their data (see `store/refused-row.ts`), kept where an
 * operator sees them instead of blocking the rows queued behind them or being lost: appended to
 * `<dataDir>/usage-dead-letter.jsonl`, one JSON object a line — `refused_at` (Unix ms), `error`
 * (the database's reason) and `r`, the row as the journal writes it (JSON escapes every control
 * character, so the file holds what the database could not) — with an error log line and a
 * count. Nothing of a dead-lettered row is in the usage tables: it was billed nowhere, so
 * correcting and inserting it later counts it once.
 */
import { appendFileSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Logger } from 'pino';
import type { UsageRow } from '../store/usage-repository.js';

export const DEAD_LETTER_FILE_NAME = 'usage-dead-letter.jsonl';

export interface RefusedRow {
  row: UsageRow;
  error: unknown;
}

const MAX_REASON_CHARS = 500;
/** Request ids named in one log line; the file has them all. */
const LOGGED_IDS = 20;

function reasonOf(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.length <= MAX_REASON_CHARS ? text : `${text.slice(0, MAX_REASON_CHARS)}…`;
}

export class UsageDeadLetters {
  private written = 0;

  /** Without a file (no data folder), the rows themselves go to the log line. */
  constructor(
    private readonly file: string | undefined,
    private readonly logger: Logger,
  ) {}

  /** Rows dead-lettered since the start (by this process's writes and by its journal recovery). */
  get count(): number {
    return this.written;
  }

  /** Persists refused rows; throws when the file cannot be written (the caller keeps them elsewhere). */
  add(refused: readonly RefusedRow[], during: 'write' | 'recovery'): void {
    if (refused.length === 0) return;
    const refusedAt = Date.now();
    const lines = refused.map(({ row, error }) => JSON.stringify({ refused_at: refusedAt, error: reasonOf(error), r: row }));
    if (this.file) {
      mkdirSync(dirname(this.file), { recursive: true });
      appendFileSync(this.file, `${lines.join('\n')}\n`);
    }
    this.written += refused.length;
    this.logger.error(
      {
        rows: refused.length,
        during,
        reason: reasonOf(refused[0].error),
        requestIds: refused.slice(0, LOGGED_IDS).map(({ row }) => row.request_id),
        ...(this.file ? { file: this.file } : { lines }),
      },
      'usage rows refused by the database were dead-lettered (the other rows are written)',
    );
  }
}
