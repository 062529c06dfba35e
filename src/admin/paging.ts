/**
 * Cursor paging for admin listings: `?limit=&cursor=` → `{ data, nextCursor }`. A cursor is the
 * opaque base64url of the last row's sort key, so pages stay stable while rows are added.
 */
import { controlCharacterAt } from '../core/client-strings.js';
import { GatewayError } from '../core/errors.js';

export const PAGE_QUERY_SCHEMA = {
  limit: { type: 'integer', minimum: 1, maximum: 200, default: 50 },
  cursor: { type: 'string', maxLength: 200 },
} as const;

interface Page<T> {
  data: T[];
  nextCursor: string | null;
}

function encodeCursor(value: unknown): string {
  return Buffer.from(JSON.stringify(value), 'utf8').toString('base64url');
}

/** The cursor's value, checked by `valid`; a cursor that is not one of ours is the client's 400. */
export function decodeCursor<T>(cursor: string | undefined, valid: (value: unknown) => value is T): T | undefined {
  if (cursor === undefined || cursor === '') return undefined;
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    value = undefined;
  }
  if (!valid(value)) throw new GatewayError('invalid_request', 'cursor is not one this listing gave out', { param: 'cursor', code: 'invalid_cursor' });
  return value;
}

/** Given `limit + 1` rows fetched, the page and the cursor of its last row (null when there is no more). */
export function pageOf<R, T>(rows: R[], limit: number, toItem: (row: R) => T, cursorOf: (row: R) => unknown): Page<T> {
  const more = rows.length > limit;
  const shown = more ? rows.slice(0, limit) : rows;
  return { data: shown.map(toItem), nextCursor: more ? encodeCursor(cursorOf(shown[shown.length - 1])) : null };
}

/** Cursor values are compared with integer and text columns: `1.5`, `1e308` or a U+0000 would be the database's error, not the client's. */
const MAX_CURSOR_ID_CHARS = 128;

function isTime(value: unknown): value is number {
  return Number.isSafeInteger(value) && (value as number) >= 0;
}

/** A `[time, id]` cursor with a text id (keys, tasks), the sort key of newest-first listings. */
export function isTimeTextCursor(value: unknown): value is [number, string] {
  return (
    Array.isArray(value) &&
    value.length === 2 &&
    isTime(value[0]) &&
    typeof value[1] === 'string' &&
    value[1].length <= MAX_CURSOR_ID_CHARS &&
    controlCharacterAt(value[1]) === -1
  );
}

/** A `[time, id]` cursor with a serial id (the audit log). */
export function isTimeSerialCursor(value: unknown): value is [number, number] {
  return Array.isArray(value) && value.length === 2 && isTime(value[0]) && Number.isSafeInteger(value[1]);
}
