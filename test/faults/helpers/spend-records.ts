/**
 * Where a key's spend is written down, read directly rather than through the code under test:
 * the ledger (the sum of its usage rows' cost on the test's PostgreSQL database) and the budget's
 * spend counter in the test's private Redis. Issue 26 renames the ledger column `cost_usd`
 * (float USD) to `cost_nusd` (integer nUSD); this reads `cost_nusd`.
 */
import { Redis } from 'ioredis';
import pg from 'pg';

export interface LedgerSpend {
  rows: number;
  costNusd: number;
}

export async function ledgerSpend(databaseUrl: string, keyId: string): Promise<LedgerSpend> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const result = await client.query('select count(*) as rows, coalesce(sum(cost_nusd), 0) as cost from usage_records where key_id = $1', [keyId]);
    return { rows: Number(result.rows[0].rows), costNusd: Number(result.rows[0].cost) };
  } finally {
    await client.end();
  }
}

export interface RedisCounter {
  /** The Redis key holding the counter (the store's prefix, then the counter's name). */
  key: string;
  /** The settled spend it holds, in nUSD. */
  settledNusd: number;
  /** What was read, for a failure message. */
  raw: unknown;
}

/** Settled-spend fields a hash counter may use; a `limit` field must never be taken for spend. */
const SETTLED_FIELD = /^(settled|spent|spend|used)/i;

/**
 * Finds the Redis key whose name ends with `counter` (whatever prefix the store puts before it)
 * and reads its settled spend: a string counter is the number itself; a hash counter its
 * settled/spent field. Throws, showing what it found, when the layout is neither.
 */
export async function readSpendCounter(redisUrl: string, counter: string): Promise<RedisCounter> {
  const redis = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 });
  await redis.connect();
  try {
    const keys: string[] = [];
    let cursor = '0';
    for (let round = 0; round < 1_000; round++) {
      const [next, found] = await redis.scan(cursor, 'MATCH', `*${counter}`, 'COUNT', 1000);
      keys.push(...found);
      cursor = next;
      if (cursor === '0') break;
    }
    if (keys.length !== 1) throw new Error(`expected one Redis key ending with ${counter}, found ${JSON.stringify(keys)}`);
    const key = keys[0];
    const type = await redis.type(key);
    if (type === 'string') {
      const raw = await redis.get(key);
      return { key, settledNusd: Number(raw), raw };
    }
    if (type === 'hash') {
      const raw = await redis.hgetall(key);
      const fields = Object.keys(raw).filter((field) => SETTLED_FIELD.test(field));
      if (fields.length !== 1) throw new Error(`cannot tell the settled spend in hash ${key}: ${JSON.stringify(raw)}`);
      return { key, settledNusd: Number(raw[fields[0]]), raw };
    }
    throw new Error(`Redis key ${key} is a ${type}, not a string or hash counter`);
  } finally {
    redis.disconnect();
  }
}
