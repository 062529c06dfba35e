/**
 * Whether a failed write was the database refusing the data itself — a value it cannot hold
 * (U+0000 in PostgreSQL text, a number out of range), a constraint, an index entry too large —
 * rather than the database being unreachable, busy, full or broken. Writing the same row again
 * can never succeed in the first case; in the second, everything must be kept and retried.
 */

/** PostgreSQL SQLSTATEs: class 22 (data exception), class 23 (integrity constraint violation), 54000 (program limit exceeded: an index row too large). */
const POSTGRES_REFUSED = /^(?:22[0-9A-Z]{3}|23[0-9A-Z]{3}|54000)$/;
/** better-sqlite3's codes for a constraint, a value of the wrong type, a value too large. */
const SQLITE_REFUSED = /^SQLITE_(?:CONSTRAINT|MISMATCH|TOOBIG)/;

export function isRefusedRow(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string') return POSTGRES_REFUSED.test(code) || SQLITE_REFUSED.test(code);
  // better-sqlite3 refuses to bind a value that is no SQL value (an object, a boolean) before running anything.
  return error instanceof TypeError && /can only bind/.test(error.message);
}
