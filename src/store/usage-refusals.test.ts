import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTempDatabase } from '../../test/helpers/postgres.js';
import { openStore, type OpenedStore } from './open-store.js';
import { countRefusals } from './usage-refusals.js';
import type { UsageRow } from './usage-repository.js';
import { DAY_MS } from './usage-rollup.js';

const T0 = 1_750_000_000_000;
const PER_MINUTE = 'key requests per minute (30)';
const BUDGET = 'account monthly budget of $5.00';

const backends: Array<[string, () => Promise<{ url: string; cleanup: () => Promise<void> }>]> = [
  ['sqlite', async () => ({ url: 'sqlite::memory:', cleanup: async () => {} })],
  [
    'postgres',
    async () => {
      const temp = await createTempDatabase();
      return { url: temp.url, cleanup: () => temp.drop() };
    },
  ],
];

let next = 0;
function row(at: number, key: string, account: string | null, refusal: string | null, outcome = refusal ? 'rate_limit' : 'ok'): UsageRow {
  next += 1;
  return {
    request_id: `refusal-test-${next}`,
    key_id: key,
    account_id: account,
    surface: 'openai',
    operation: 'chat',
    model: 'm',
    channel: refusal ? '' : 'c',
    provider: refusal ? '' : 'p',
    upstream_model: refusal ? '' : 'u',
    outcome,
    stream: 0,
    input_tokens: 0,
    output_tokens: 0,
    cache_read_tokens: 0,
    cache_write_tokens: 0,
    reasoning_tokens: 0,
    units: 0,
    cost_nusd: 0,
    latency_ms: 1,
    created_at: at,
    refusal,
  };
}

describe.each(backends)('refusals counted by reason on %s', (_name, makeBackend) => {
  let store: OpenedStore;
  let cleanup: () => Promise<void>;

  beforeAll(async () => {
    const backend = await makeBackend();
    cleanup = backend.cleanup;
    store = await openStore(backend.url);
    await store.db
      .insertInto('usage_records')
      .values([
        row(T0, 'k1', 'a1', PER_MINUTE),
        row(T0 + 1, 'k1', 'a1', PER_MINUTE),
        row(T0 + 2, 'k1', 'a1', PER_MINUTE),
        row(T0 + 3, 'k2', 'a2', PER_MINUTE),
        row(T0 + 4, 'k2', 'a2', BUDGET, 'insufficient_quota'),
        row(T0 + 5, 'k1', 'a1', null),
        row(T0 + 6, 'k1', 'a1', null, 'upstream'),
        // Outside [T0, T0 + 1 day): before the window, and exactly at its end.
        row(T0 - 1, 'k1', 'a1', PER_MINUTE),
        row(T0 + DAY_MS, 'k1', 'a1', PER_MINUTE),
      ])
      .execute();
  });
  afterAll(async () => {
    await store?.close();
    await cleanup?.();
  });

  it('counts refused rows in [from, to) by reason and outcome, most frequent first, leaving out rows that were not refused', async () => {
    expect(await countRefusals(store.db, { from: T0, to: T0 + DAY_MS })).toEqual([
      { reason: PER_MINUTE, outcome: 'rate_limit', count: 4 },
      { reason: BUDGET, outcome: 'insufficient_quota', count: 1 },
    ]);
  });

  it('narrows to one key, one account, or a member’s own account', async () => {
    const window = { from: T0, to: T0 + DAY_MS };
    expect(await countRefusals(store.db, { ...window, keyId: 'k1' })).toEqual([{ reason: PER_MINUTE, outcome: 'rate_limit', count: 3 }]);
    expect(await countRefusals(store.db, { ...window, accountId: 'a2' })).toEqual([
      { reason: BUDGET, outcome: 'insufficient_quota', count: 1 },
      { reason: PER_MINUTE, outcome: 'rate_limit', count: 1 },
    ]);
    // A member scoped to a1 asking for a2 sees nothing of a2's.
    expect(await countRefusals(store.db, { ...window, accountId: 'a2', accountScope: 'a1' })).toEqual([]);
    expect(await countRefusals(store.db, { ...window, accountScope: 'a1' })).toEqual([{ reason: PER_MINUTE, outcome: 'rate_limit', count: 3 }]);
  });

  it('refuses a window that is backwards, empty or longer than 31 days', async () => {
    await expect(countRefusals(store.db, { from: T0, to: T0 - 1 })).rejects.toMatchObject({ code: 'invalid_range' });
    await expect(countRefusals(store.db, { from: T0, to: T0 })).rejects.toMatchObject({ code: 'invalid_range' });
    await expect(countRefusals(store.db, { from: T0, to: T0 + 31 * DAY_MS + 1 })).rejects.toMatchObject({ code: 'invalid_range' });
    expect(await countRefusals(store.db, { from: T0 - 30 * DAY_MS, to: T0 + DAY_MS })).toHaveLength(2);
  });
});
