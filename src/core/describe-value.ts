/**
 * Bounded descriptions of client values for error messages: whatever a client sends, an error
 * echoes at most a few hundred characters of it, and never walks deeper than a few levels (so a
 * value nested thousands deep cannot overflow the stack while its error is being written).
 */

/** Longest piece of client text an error message echoes. */
export const MAX_ECHO_CHARS = 256;

const PREVIEW_DEPTH = 2;
const PREVIEW_ENTRIES = 4;

/** `text` cut to `max` characters, with an ellipsis and the original length when it was cut. */
export function truncateText(text: string, max = MAX_ECHO_CHARS): string {
  if (text.length <= max) return text;
  return `${text.slice(0, max)}… (${text.length} characters)`;
}

/** A client string as it would appear in JSON, quoted, cut to `max` characters. */
export function quoteValue(text: string, max = MAX_ECHO_CHARS): string {
  if (text.length <= max) return JSON.stringify(text);
  return `${JSON.stringify(text.slice(0, max))}… (${text.length} characters)`;
}

/**
 * Any client value, for "got …" in an error message: strings quoted, numbers and literals as
 * they are, arrays and objects as a short preview two levels deep — always at most about
 * MAX_ECHO_CHARS characters.
 */
export function describeValue(value: unknown): string {
  if (typeof value === 'string') return quoteValue(value);
  const preview = previewOf(value, PREVIEW_DEPTH);
  return preview.length <= MAX_ECHO_CHARS ? preview : `${preview.slice(0, MAX_ECHO_CHARS)}…`;
}

function previewOf(value: unknown, depth: number): string {
  if (value === undefined) return 'undefined';
  if (value === null || typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (typeof value === 'string') return quoteValue(value, 64);
  if (typeof value !== 'object') return typeof value;
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    if (depth === 0) return `[…${value.length} items]`;
    const items = value.slice(0, PREVIEW_ENTRIES).map((item) => previewOf(item, depth - 1));
    if (value.length > PREVIEW_ENTRIES) items.push(`…${value.length - PREVIEW_ENTRIES} more`);
    return `[${items.join(',')}]`;
  }
  const keys = Object.keys(value);
  if (keys.length === 0) return '{}';
  if (depth === 0) return `{…${keys.length} keys}`;
  const entries = keys.slice(0, PREVIEW_ENTRIES).map((key) => `${quoteValue(key, 64)}:${previewOf((value as Record<string, unknown>)[key], depth - 1)}`);
  if (keys.length > PREVIEW_ENTRIES) entries.push(`…${keys.length - PREVIEW_ENTRIES} more`);
  return `{${entries.join(',')}}`;
}
