/** Usage records: written in batches by the ledger, read by reports. */
import type { Insertable, Kysely, Selectable } from 'kysely';
import type { Database, UsageRecordsTable } from './schema.js';

export type UsageRow = Insertable<UsageRecordsTable>;
export type StoredUsage = Selectable<UsageRecordsTable>;

export interface UsageTotals {
  requests: number;
  inputTokens: number;
  outputTokens: number;
  costUsd: number;
}

export class UsageRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async insertMany(rows: UsageRow[]): Promise<void> {
    if (rows.length === 0) return;
    // Bounded statement size: SQLite allows 32k parameters; 19 columns a row.
    for (let i = 0; i < rows.length; i += 500) {
      await this.db.insertInto('usage_records').values(rows.slice(i, i + 500)).execute();
    }
  }

  async recent(limit: number, keyId?: string): Promise<StoredUsage[]> {
    let query = this.db.selectFrom('usage_records').selectAll().orderBy('id', 'desc').limit(limit);
    if (keyId) query = query.where('key_id', '=', keyId);
    return query.execute();
  }

  async totals(keyId?: string, since = 0): Promise<UsageTotals> {
    let query = this.db
      .selectFrom('usage_records')
      .select((eb) => [
        eb.fn.countAll<number>().as('requests'),
        eb.fn.coalesce(eb.fn.sum<number>('input_tokens'), eb.val(0)).as('input'),
        eb.fn.coalesce(eb.fn.sum<number>('output_tokens'), eb.val(0)).as('output'),
        eb.fn.coalesce(eb.fn.sum<number>('cost_usd'), eb.val(0)).as('cost'),
      ])
      .where('created_at', '>=', since);
    if (keyId) query = query.where('key_id', '=', keyId);
    const row = await query.executeTakeFirstOrThrow();
    return { requests: Number(row.requests), inputTokens: Number(row.input), outputTokens: Number(row.output), costUsd: Number(row.cost) };
  }
}
