import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { spentInPeriod } from './budget-spend.js';
import { openStore } from './open-store.js';

describe('spentInPeriod', () => {
  it("sums a key's or an account's row costs (nUSD) created in [start, end)", async () => {
    const store = await openStore('sqlite::memory:');
    try {
      // The money migration makes this column; until it lands here, the test adds it.
      const columns = await sql<{ name: string }>`select name from pragma_table_info('usage_records')`.execute(store.db);
      if (!columns.rows.some((column) => column.name === 'cost_nusd')) {
        await sql`alter table usage_records add column cost_nusd integer not null default 0`.execute(store.db);
      }
      // Before the money migration the float cost_usd is still there (and required); after it, only cost_nusd.
      const usd = columns.rows.some((column) => column.name === 'cost_usd') ? sql.raw(', cost_usd') : sql.raw('');
      const zero = columns.rows.some((column) => column.name === 'cost_usd') ? sql.raw(', 0') : sql.raw('');
      const row = (id: string, key: string, account: string | null, at: number, nusd: number) =>
        sql`insert into usage_records (request_id, key_id, account_id, surface, operation, model, channel, provider, upstream_model, outcome, stream,
              input_tokens, output_tokens, cache_read_tokens, cache_write_tokens, reasoning_tokens, units, latency_ms, created_at, cost_nusd${usd})
            values (${id}, ${key}, ${account}, 'openai', 'chat', 'm', 'c', 'p', 'u', 'ok', 0, 0, 0, 0, 0, 0, 0, 1, ${at}, ${nusd}${zero})`.execute(store.db);
      await row('r1', 'k1', 'a1', 1_000, 5);
      await row('r2', 'k1', 'a1', 2_000, 7);
      await row('r3', 'k2', 'a1', 2_500, 11);
      await row('r4', 'k1', 'a1', 3_000, 13);
      await row('r5', 'k1', null, 500, 17);
      expect(await spentInPeriod(store.db, 'key', 'k1', 1_000, 3_000)).toBe(12);
      expect(await spentInPeriod(store.db, 'account', 'a1', 1_000, 3_000)).toBe(23);
      expect(await spentInPeriod(store.db, 'key', 'k1', 0, null)).toBe(42);
      expect(await spentInPeriod(store.db, 'key', 'nobody', 0, null)).toBe(0);
    } finally {
      await store.close();
    }
  });
});
