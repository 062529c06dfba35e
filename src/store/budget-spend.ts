/**
 * What a key or an account spent in a budget period, from the ledger: the sum of its usage
 * rows' costs (calls and tasks alike) created in `[start, end)`. Read to seed a budget's counter
 * the first time a process uses it and by `gengate budgets rebuild`; never on a call's hot path
 * after that.
 *
 * Written against `usage_records.cost_nusd` (integer nUSD), the column the money migration makes
 * of the float `cost_usd`.
 */
import { type Kysely, sql } from 'kysely';
import type { Database } from './schema.js';

export async function spentInPeriod(db: Kysely<Database>, scope: 'key' | 'account', subject: string, start: number, end: number | null): Promise<number> {
  let query = db
    .selectFrom('usage_records')
    .select(sql<string | number | null>`sum(cost_nusd)`.as('spent'))
    .where(scope === 'key' ? 'key_id' : 'account_id', '=', subject)
    .where('created_at', '>=', start);
  if (end !== null) query = query.where('created_at', '<', end);
  const row = await query.executeTakeFirst();
  return Number(row?.spent ?? 0);
}
