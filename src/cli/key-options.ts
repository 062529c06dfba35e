/** The values of `gengate keys create`, checked: a key's name, its model patterns and its expiry. */
import { UsageError } from './usage.js';

export const MAX_NAME_CHARS = 100;
const MAX_PATTERNS = 100;
const MAX_PATTERN_CHARS = 200;

/** Control characters (tabs, newlines, escapes) and the bidirectional overrides that reorder text on a terminal. */
const UNPRINTABLE = /[\p{Cc}\u200E\u200F\u202A-\u202E\u2066-\u2069]/u;

export function parseKeyName(value: string | undefined): string {
  if (value === undefined) return 'unnamed';
  const name = value.trim();
  if (!name) throw new UsageError('--name is empty: give a label, or leave --name out');
  if (UNPRINTABLE.test(name)) throw new UsageError('--name must be one line of printable text (no tabs, newlines or control characters)');
  if ([...name].length > MAX_NAME_CHARS) throw new UsageError(`--name is longer than ${MAX_NAME_CHARS} characters`);
  return name;
}

/** Model patterns; `undefined` (no --models) means any model. An empty list is a mistake, never "any". */
export function parseModelPatterns(value: string | undefined): string[] | null {
  if (value === undefined) return null;
  const patterns = value
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean);
  if (patterns.length === 0) {
    throw new UsageError('--models lists no model: give patterns such as textmodel-b-*, or leave --models out for a key that may use any model');
  }
  if (patterns.length > MAX_PATTERNS) throw new UsageError(`--models lists more than ${MAX_PATTERNS} patterns`);
  for (const pattern of patterns) {
    if (/\s/.test(pattern) || UNPRINTABLE.test(pattern))
      throw new UsageError(`--models: "${JSON.stringify(pattern).slice(1, -1)}" contains spaces or control characters`);
    if (pattern.length > MAX_PATTERN_CHARS) throw new UsageError(`--models: a pattern is longer than ${MAX_PATTERN_CHARS} characters`);
  }
  return [...new Set(patterns)];
}

const ISO_DATE = /^(\d{4}-\d{2}-\d{2})(T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})?)?$/;

/** A date (midnight UTC) or an ISO 8601 time, later than `now`; `undefined` means never. */
export function parseExpiry(value: string | undefined, now: number): number | null {
  if (value === undefined) return null;
  const text = value.trim();
  const match = ISO_DATE.exec(text);
  const at = match ? Date.parse(match[2] && !match[5] ? `${text}Z` : text) : Number.NaN;
  // Date.parse rolls 2027-02-30 over to March; a date that does not exist is refused instead.
  if (Number.isNaN(at) || (match && !match[5] && new Date(at).toISOString().slice(0, 10) !== match[1])) {
    throw new UsageError(`--expires "${text}" is not a date: use YYYY-MM-DD (UTC) or an ISO 8601 time such as 2027-01-01T12:00Z`);
  }
  if (at <= now) {
    throw new UsageError(`--expires ${new Date(at).toISOString()} is not in the future: a key must expire after it is created`);
  }
  return at;
}
