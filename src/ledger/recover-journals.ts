/**
 * Folds the usage journals left by processes that are gone into the database, before the
 * gateway serves: every journaled row is inserted (the unique request id makes a row the
 * database already holds a no-op), every call admitted but never ended is inserted as
 * `interrupted` with what was known, and the files are deleted once the database holds it all.
 * A row the database refuses for its data is dead-lettered (counted, logged, kept in a file)
 * instead of stopping the start.
 */
import { createReadStream, statSync, unlinkSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { isRefusedRow } from '../store/refused-row.js';
import type { UsageRepository, UsageRow } from '../store/usage-repository.js';
import { insertIsolating } from './insert-isolating.js';
import { isAbandoned, listJournalFiles, type JournalFile } from './journal-files.js';
import { interruptedRow, parseJournalLine, type OpenCall } from './journal-entries.js';
import type { RefusedRow } from './usage-dead-letters.js';

export interface RecoveryResult {
  files: number;
  /** Rows of calls that ended, as journaled. */
  rows: number;
  /** Calls that never ended, closed as `interrupted`. */
  interrupted: number;
  /** Torn or damaged lines. */
  skippedLines: number;
  /** Rows the database refused for their data, handed to `deadLetter` instead of inserted. */
  deadLettered: number;
}

interface RecoveryOptions {
  /** Which journal files belong to processes that are gone (default: by their lock and pid). */
  isGone?: (file: JournalFile) => boolean;
  /** Keeps rows the database refused; throws when it cannot (the journal files are then left). */
  deadLetter?: (refused: RefusedRow[]) => void;
}

const MAX_LINE_CHARS = 1024 * 1024;

interface Folded {
  rows: Map<string, UsageRow>;
  opens: Map<string, { open: OpenCall; lastSeenAt: number }>;
  skippedLines: number;
}

/** Folds a file's lines; a file another process starting on the same folder already folded and deleted is skipped. */
async function readInto(file: JournalFile, folded: Folded): Promise<void> {
  try {
    await foldLines(file, folded);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}

async function foldLines(file: JournalFile, folded: Folded): Promise<void> {
  const lastSeenAt = statSync(file.path).mtimeMs;
  const lines = createInterface({ input: createReadStream(file.path, { encoding: 'utf8' }), crlfDelay: Infinity });
  for await (const line of lines) {
    if (line === '') continue;
    const entry = line.length > MAX_LINE_CHARS ? undefined : parseJournalLine(line);
    if (!entry) folded.skippedLines++;
    else if ('row' in entry) folded.rows.set(entry.row.request_id, entry.row);
    else folded.opens.set(entry.open.request_id, { open: entry.open, lastSeenAt });
  }
}

export async function recoverJournals(dir: string, repository: Pick<UsageRepository, 'insertMany'>, options: RecoveryOptions = {}): Promise<RecoveryResult> {
  const { isGone = (file: JournalFile) => isAbandoned(file), deadLetter } = options;
  const files = listJournalFiles(dir).filter(isGone);
  const folded: Folded = { rows: new Map(), opens: new Map(), skippedLines: 0 };
  for (const file of files) await readInto(file, folded);
  const rows = [...folded.rows.values()];
  let interrupted = 0;
  for (const [requestId, { open, lastSeenAt }] of folded.opens) {
    if (folded.rows.has(requestId)) continue;
    rows.push(interruptedRow(open, lastSeenAt));
    interrupted++;
  }
  rows.sort((a, b) => a.created_at - b.created_at);
  let deadLettered = 0;
  for (let i = 0; i < rows.length; i += 1000) {
    const outcome = await insertIsolating(rows.slice(i, i + 1000), (part) => repository.insertMany(part), isRefusedRow);
    if (outcome.unwritten.length > 0) throw outcome.error;
    if (outcome.refused.length === 0) continue;
    const refused = outcome.refused.map(({ item, error }) => ({ row: item, error }));
    // Without a keeper the rows stay in the journal files, which are then not deleted.
    if (!deadLetter) throw refused[0].error;
    deadLetter(refused);
    deadLettered += refused.length;
  }
  for (const file of files) {
    try {
      unlinkSync(file.path);
    } catch (error) {
      // Another process starting on the same folder folded it too.
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
  return { files: files.length, rows: folded.rows.size, interrupted, skippedLines: folded.skippedLines, deadLettered };
}
