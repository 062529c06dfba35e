import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTempDatabase, type TempDatabase } from '../../test/helpers/postgres.js';
import { ApiKeysRepository, type StoredApiKey } from './api-keys-repository.js';
import { openStore, type OpenedStore } from './open-store.js';
import { UsageRepository, type UsageRow } from './usage-repository.js';

function usageRow(overrides: Partial<UsageRow> = {}): UsageRow {
  return {
    request_id: 'req_1',
    key_id: 'k1',
    surface: 'openai',
    operation: 'chat',
    model: 'textmodel-b-4o',
    channel: 'openai-env',
    provider: 'openai',
    upstream_model: 'gpt-4o',
    outcome: 'ok',
    stream: 0,
    input_tokens: 100,
    output_tokens: 20,
    cache_read_tokens: 40,
    cache_write_tokens: 0,
    reasoning_tokens: 0,
    units: 0,
    cost_nusd: 1_250_000,
    latency_ms: 12,
    created_at: 1_700_000_000_000,
    ...overrides,
  };
}

const key: StoredApiKey = {
  id: 'abcdefghij',
  name: 'ci',
  keyHash: 'aa'.repeat(32),
  keyHint: 'gg-abcdefghij…',
  models: ['textmodel-b-*'],
  expiresAt: 1_900_000_000_000,
  revokedAt: null,
  createdAt: 1_700_000_000_000,
  accountId: null,
  admin: false,
};

const backends: Array<[string, () => Promise<{ url: string; cleanup: () => Promise<void> }>]> = [
  [
    'sqlite',
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'gengate-store-'));
      return { url: `sqlite:${join(dir, 'nested', 'gengate.db')}`, cleanup: async () => rmSync(dir, { recursive: true, force: true }) };
    },
  ],
  [
    'postgres',
    async () => {
      const temp: TempDatabase = await createTempDatabase();
      return { url: temp.url, cleanup: () => temp.drop() };
    },
  ],
];

describe.each(backends)('store on %s', (_name, makeBackend) => {
  let store: OpenedStore;
  let url: string;
  let cleanup: () => Promise<void>;

  beforeAll(async () => {
    const backend = await makeBackend();
    cleanup = backend.cleanup;
    url = backend.url;
    store = await openStore(url);
  });

  afterAll(async () => {
    await store?.close();
    await cleanup?.();
  });

  it('keeps keys with their restrictions and revokes them once', async () => {
    const keys = new ApiKeysRepository(store.db);
    await keys.insert(key);
    expect(await keys.findById('abcdefghij')).toEqual(key);
    expect(await keys.findById('nope')).toBeUndefined();
    expect(await keys.count()).toBe(1);
    expect(await keys.revoke('abcdefghij', 1_800_000_000_000)).toBe(true);
    expect(await keys.revoke('abcdefghij', 1_800_000_000_001)).toBe(false);
    const [listed] = await keys.list();
    expect(listed.revokedAt).toBe(1_800_000_000_000);
  });

  it('refuses a second key with the same hash', async () => {
    const keys = new ApiKeysRepository(store.db);
    await expect(keys.insert({ ...key, id: 'otherid123' })).rejects.toThrow();
  });

  it('writes usage in batches and sums it per key', async () => {
    const usage = new UsageRepository(store.db, store.sqlite);
    const rows = Array.from({ length: 1203 }, (_, i) => usageRow({ request_id: `req_${i}`, key_id: i % 3 === 0 ? 'k3' : 'k1' }));
    await usage.insertMany(rows);
    const all = await usage.totals();
    expect(all).toEqual({ requests: 1203, inputTokens: 120_300, outputTokens: 24_060, costNusd: 1_503_750_000 });
    const k3 = await usage.totals('k3');
    expect(k3.requests).toBe(401);
    const recent = await usage.recent(2, 'k1');
    expect(recent).toHaveLength(2);
    expect(recent[0].request_id).toBe('req_1202');
    expect(typeof recent[0].created_at).toBe('number');
    expect(recent[0].created_at).toBe(1_700_000_000_000);
  });

  it('a second opening of the same database finds the schema up to date and the data there', async () => {
    const again = await openStore(url);
    try {
      expect(await new ApiKeysRepository(again.db).count()).toBe(1);
    } finally {
      await again.close();
    }
  });
});
