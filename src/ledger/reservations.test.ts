import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTempDatabase } from '../../test/helpers/postgres.js';
import { type LedgerMove, ledgerEntries, ledgerWrites } from '../store/ledger-writes.js';
import { type OpenedStore, openStore } from '../store/open-store.js';
import { ROLLUP_TABLES } from '../store/usage-rollup.js';
import { type ReservationEnd, release, reserve, settle } from './reservations.js';

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

const end = (id: string, outcome: string, units = 1): ReservationEnd => ({
  at: 2_000,
  usage: {
    requestId: `task:${id}`,
    keyId: 'key1',
    accountId: 'acc1',
    surface: 'imagegen1',
    operation: 'image.generate',
    model: 'm',
    stream: false,
    route: { channel: 'c', provider: 'p', upstreamModel: 'um' },
    outcome,
    usage: undefined,
    units,
    latencyMs: 5,
    createdAt: 2_000,
  },
});

describe.each(backends)('reservations on %s', (_name, makeBackend) => {
  let store: OpenedStore;
  let cleanup: () => Promise<void>;
  beforeAll(async () => {
    const backend = await makeBackend();
    cleanup = backend.cleanup;
    store = await openStore(backend.url);
  });
  afterAll(async () => {
    await store.close();
    await cleanup();
  });
  afterEach(async () => {
    await store.db.deleteFrom('task_ledger').execute();
    await store.db.deleteFrom('usage_records').execute();
    for (const table of ROLLUP_TABLES) await store.db.deleteFrom(table.name).execute();
  });

  /** Runs a move as the store does: inside one transaction. */
  const run = (move: LedgerMove) => store.db.transaction().execute((trx) => move(ledgerWrites(trx, store)));

  const kinds = async (id: string) => (await ledgerEntries(store.db, id)).map((entry) => [entry.kind, entry.amount_nusd]);
  const usage = () => store.db.selectFrom('usage_records').select(['request_id', 'outcome', 'cost_nusd', 'units', 'account_id']).execute();
  const dailyCost = async () => (await store.db.selectFrom('usage_daily').select('cost_nusd').execute()).reduce((sum, row) => sum + Number(row.cost_nusd), 0);

  it('settles what was used, never more than reserved, with one usage row counted in the rollups', async () => {
    // $0.50 reserved, $0.75 asked: $0.50 charged, in nUSD.
    await run(reserve({ id: 't1', owner: 'key1', amountNusd: 500_000_000, at: 1_000 }));
    expect(await run(settle('t1', 750_000_000, end('t1', 'ok')))).toBe(true);
    expect(await kinds('t1')).toEqual([
      ['reserve', 500_000_000],
      ['settle', 500_000_000],
    ]);
    expect(await usage()).toEqual([{ request_id: 'task:t1', outcome: 'ok', cost_nusd: 500_000_000, units: 1, account_id: 'acc1' }]);
    expect(await dailyCost()).toBe(500_000_000);
  });

  it('makes a second settle or release of the same reservation a no-op', async () => {
    await run(reserve({ id: 't1', owner: 'key1', amountNusd: 500_000_000, at: 1_000 }));
    expect(await run(settle('t1', 200_000_001, end('t1', 'ok')))).toBe(true);
    expect(await run(settle('t1', 300_000_000, end('t1', 'ok')))).toBe(false);
    expect(await run(release('t1', end('t1', 'failed')))).toBe(false);
    expect(await kinds('t1')).toEqual([
      ['reserve', 500_000_000],
      ['settle', 200_000_001],
    ]);
    expect(await usage()).toHaveLength(1);
    expect(await dailyCost()).toBe(200_000_001);
  });

  it('releases all that was reserved once, billing nothing', async () => {
    await run(reserve({ id: 't2', owner: 'key1', amountNusd: 250_000_000, at: 1_000 }));
    expect(await run(release('t2', end('t2', 'canceled', 0)))).toBe(true);
    expect(await run(release('t2', end('t2', 'canceled', 0)))).toBe(false);
    expect(await run(settle('t2', 250_000_000, end('t2', 'ok')))).toBe(false);
    expect(await kinds('t2')).toEqual([
      ['reserve', 250_000_000],
      ['refund', 250_000_000],
    ]);
    expect(await usage()).toEqual([{ request_id: 'task:t2', outcome: 'canceled', cost_nusd: 0, units: 0, account_id: 'acc1' }]);
  });

  it('refuses to settle or release a reservation that was never made, writing nothing', async () => {
    await expect(run(settle('nope', 1, end('nope', 'ok')))).rejects.toThrow(/no reservation nope/);
    await expect(run(release('nope', end('nope', 'failed')))).rejects.toThrow(/no reservation nope/);
    expect(await usage()).toEqual([]);
  });

  it('refuses an amount that is not a whole number of nUSD before writing anything', () => {
    expect(() => reserve({ id: 't3', owner: 'key1', amountNusd: 0.5, at: 1_000 })).toThrow(RangeError);
    expect(() => settle('t3', -1, end('t3', 'ok'))).toThrow(RangeError);
  });
});
