/**
 * Failures counted by whose fault they were: the usage rows with an error type (migration 023),
 * grouped by it, in a window [from, to) of at most `MAX_ERROR_WINDOW_DAYS` days, optionally for
 * one key, account, model or channel. The daily rollups have no error-type dimension, so this
 * reads `usage_records` itself, within the `created_at` index's range (as `usage-refusals.ts`);
 * the vocabulary is closed, so at most one group a type comes back, the most frequent first.
 */
import type { Kysely } from 'kysely';
import { type ErrorType, isErrorType } from '../core/error-type.js';
import { GatewayError } from '../core/errors.js';
import type { Database } from './schema.js';
import { DAY_MS } from './usage-rollup.js';

export const MAX_ERROR_WINDOW_DAYS = 31;

export interface ErrorTypeQuery {
  /** Unix ms, inclusive. */
  from: number;
  /** Unix ms, exclusive. */
  to: number;
  keyId?: string;
  accountId?: string;
  model?: string;
  channel?: string;
  /** When set, only this account's rows are counted, whatever `accountId` says (a member's view). */
  accountScope?: string;
}

export interface ErrorTypeCount {
  errorType: ErrorType;
  count: number;
}

/** Checks the window; a bad one is the caller's 400. */
function checkWindow(from: number, to: number): void {
  if (!Number.isSafeInteger(from) || !Number.isSafeInteger(to) || from < 0 || to < 0) {
    throw new GatewayError('invalid_request', '`from` and `to` must be Unix milliseconds.', { code: 'invalid_range', param: 'from' });
  }
  if (to <= from) throw new GatewayError('invalid_request', '`to` must be after `from`.', { code: 'invalid_range', param: 'to' });
  if (to - from > MAX_ERROR_WINDOW_DAYS * DAY_MS) {
    throw new GatewayError('invalid_request', `Errors are counted over at most ${MAX_ERROR_WINDOW_DAYS} days.`, { code: 'invalid_range', param: 'from' });
  }
}

export async function countErrorTypes(db: Kysely<Database>, query: ErrorTypeQuery): Promise<ErrorTypeCount[]> {
  checkWindow(query.from, query.to);
  let select = db
    .selectFrom('usage_records')
    .select('error_type')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('created_at', '>=', query.from)
    .where('created_at', '<', query.to)
    .where('error_type', 'is not', null);
  if (query.keyId !== undefined) select = select.where('key_id', '=', query.keyId);
  if (query.accountId !== undefined) select = select.where('account_id', '=', query.accountId);
  if (query.model !== undefined) select = select.where('model', '=', query.model);
  if (query.channel !== undefined) select = select.where('channel', '=', query.channel);
  if (query.accountScope !== undefined) select = select.where('account_id', '=', query.accountScope);
  const rows = await select.groupBy('error_type').orderBy('n', 'desc').orderBy('error_type').limit(100).execute();
  const counts: ErrorTypeCount[] = [];
  // PostgreSQL answers count(*) as a bigint string.
  for (const row of rows) if (isErrorType(row.error_type)) counts.push({ errorType: row.error_type, count: Number(row.n) });
  return counts;
}
