/**
 * Refused calls counted by the limit that refused them: the usage rows a rate limit or a budget
 * wrote (`refusal` set, migration 021), grouped by that label and the outcome, in a window
 * [from, to) of at most `MAX_REFUSAL_WINDOW_DAYS` days, optionally for one key or one account.
 * The daily rollups have no refusal dimension, so this reads `usage_records` itself; the window
 * bound keeps that scan to the `created_at` index's range (no new index: building one on a large
 * usage table would block writes on PostgreSQL during the migration), and at most
 * `MAX_REFUSAL_GROUPS` groups come back, the most frequent first.
 */
import type { Kysely } from 'kysely';
import { GatewayError } from '../core/errors.js';
import type { Database } from './schema.js';
import { DAY_MS } from './usage-rollup.js';

export const MAX_REFUSAL_WINDOW_DAYS = 31;
export const MAX_REFUSAL_GROUPS = 100;

export interface RefusalQuery {
  /** Unix ms, inclusive. */
  from: number;
  /** Unix ms, exclusive. */
  to: number;
  keyId?: string;
  accountId?: string;
  /** When set, only this account's rows are counted, whatever `accountId` says (a member's view). */
  accountScope?: string;
}

export interface RefusalCount {
  /** The limit's label, e.g. `key requests per minute (30)`. */
  reason: string;
  /** `rate_limit` or `insufficient_quota`. */
  outcome: string;
  count: number;
}

/** Checks the window; a bad one is the caller's 400. */
function checkWindow(from: number, to: number): void {
  if (!Number.isSafeInteger(from) || !Number.isSafeInteger(to) || from < 0 || to < 0) {
    throw new GatewayError('invalid_request', '`from` and `to` must be Unix milliseconds.', { code: 'invalid_range', param: 'from' });
  }
  if (to <= from) throw new GatewayError('invalid_request', '`to` must be after `from`.', { code: 'invalid_range', param: 'to' });
  if (to - from > MAX_REFUSAL_WINDOW_DAYS * DAY_MS) {
    throw new GatewayError('invalid_request', `Refusals are counted over at most ${MAX_REFUSAL_WINDOW_DAYS} days.`, {
      code: 'invalid_range',
      param: 'from',
    });
  }
}

export async function countRefusals(db: Kysely<Database>, query: RefusalQuery): Promise<RefusalCount[]> {
  checkWindow(query.from, query.to);
  let select = db
    .selectFrom('usage_records')
    .select(['refusal', 'outcome'])
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('created_at', '>=', query.from)
    .where('created_at', '<', query.to)
    .where('refusal', 'is not', null);
  if (query.keyId !== undefined) select = select.where('key_id', '=', query.keyId);
  if (query.accountId !== undefined) select = select.where('account_id', '=', query.accountId);
  if (query.accountScope !== undefined) select = select.where('account_id', '=', query.accountScope);
  const rows = await select.groupBy(['refusal', 'outcome']).orderBy('n', 'desc').orderBy('refusal').orderBy('outcome').limit(MAX_REFUSAL_GROUPS).execute();
  // PostgreSQL answers count(*) as a bigint string.
  return rows.map((row) => ({ reason: String(row.refusal), outcome: row.outcome, count: Number(row.n) }));
}
