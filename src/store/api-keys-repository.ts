/**
 * API keys in the store: only their hashes are kept. Every change bumps the `keys` revision and
 * stamps the row with it (see store-revisions.ts), so processes can read just what changed.
 */
import type { Kysely } from 'kysely';
import type { Selectable } from 'kysely';
import type { ApiKeysTable, Database } from './schema.js';
import { bumpRevision, readRevision } from './store-revisions.js';

export interface StoredApiKey {
  id: string;
  name: string;
  keyHash: string;
  keyHint: string;
  models: string[] | null;
  expiresAt: number | null;
  revokedAt: number | null;
  createdAt: number;
  /** The owning account; null for an operator key made by the CLI. */
  accountId: string | null;
  /** Whether the key may call the admin API. */
  admin: boolean;
}

/** A key refused because its account holds as many active keys as it may. */
export class KeyLimitError extends Error {
  constructor(readonly limit: number) {
    super(`the account already holds ${limit} active keys`);
    this.name = 'KeyLimitError';
  }
}

/** Keys of the account neither revoked nor expired at `now`. */
async function countActive(db: Kysely<Database>, accountId: string, now: number): Promise<number> {
  const row = await db
    .selectFrom('api_keys')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('account_id', '=', accountId)
    .where('revoked_at', 'is', null)
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

function fromRow(row: Selectable<ApiKeysTable>): StoredApiKey {
  return {
    id: row.id,
    name: row.name,
    keyHash: row.key_hash,
    keyHint: row.key_hint,
    models: row.models === null ? null : (JSON.parse(row.models) as string[]),
    expiresAt: row.expires_at,
    revokedAt: row.revoked_at,
    createdAt: row.created_at,
    accountId: row.account_id,
    admin: row.admin === 1,
  };
}

export class ApiKeysRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /**
   * Stores a new key. With `maxActive`, refuses (`KeyLimitError`, nothing written) when the key's
   * account already holds that many active keys: counted after the revision bump, whose lock
   * serialises key writes, so concurrent creations cannot pass the cap together.
   */
  async insert(key: StoredApiKey, options: { maxActive?: number } = {}): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      const revision = await bumpRevision(trx, 'keys');
      if (options.maxActive !== undefined && key.accountId !== null) {
        const active = await countActive(trx, key.accountId, key.createdAt);
        if (active >= options.maxActive) throw new KeyLimitError(options.maxActive);
      }
      await trx
        .insertInto('api_keys')
        .values({
          id: key.id,
          name: key.name,
          key_hash: key.keyHash,
          key_hint: key.keyHint,
          models: key.models === null ? null : JSON.stringify(key.models),
          expires_at: key.expiresAt,
          revoked_at: key.revokedAt,
          created_at: key.createdAt,
          account_id: key.accountId,
          admin: key.admin ? 1 : 0,
          revision,
        })
        .execute();
    });
  }

  async findById(id: string): Promise<StoredApiKey | undefined> {
    const row = await this.db.selectFrom('api_keys').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? fromRow(row) : undefined;
  }

  async list(): Promise<StoredApiKey[]> {
    const rows = await this.db.selectFrom('api_keys').selectAll().orderBy('created_at').execute();
    return rows.map(fromRow);
  }

  /** The keys created or changed after `revision` of the `keys` counter. */
  async changedSince(revision: number): Promise<StoredApiKey[]> {
    const rows = await this.db.selectFrom('api_keys').selectAll().where('revision', '>', revision).execute();
    return rows.map(fromRow);
  }

  /** The `keys` counter now: what a reader that then lists keys has seen at least. */
  revision(): Promise<number> {
    return readRevision(this.db, 'keys');
  }

  async count(): Promise<number> {
    const row = await this.db
      .selectFrom('api_keys')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** Marks a key revoked; true when a live key was revoked. */
  async revoke(id: string, at: number): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const result = await trx.updateTable('api_keys').set({ revoked_at: at }).where('id', '=', id).where('revoked_at', 'is', null).executeTakeFirst();
      const revoked = Number(result.numUpdatedRows) > 0;
      if (revoked) {
        const revision = await bumpRevision(trx, 'keys');
        await trx.updateTable('api_keys').set({ revision }).where('id', '=', id).execute();
      }
      return revoked;
    });
  }

  /** One page of keys, newest first, each with its account's email; `before` is the last row of the previous page. */
  async page(filter: { accountId?: string; before?: [number, string] }, limit: number): Promise<Array<StoredApiKey & { accountEmail: string | null }>> {
    let query = this.db
      .selectFrom('api_keys')
      .leftJoin('accounts', 'accounts.id', 'api_keys.account_id')
      .selectAll('api_keys')
      .select('accounts.email as account_email');
    if (filter.accountId !== undefined) query = query.where('api_keys.account_id', '=', filter.accountId);
    const before = filter.before;
    if (before) {
      query = query.where((eb) =>
        eb.or([eb('api_keys.created_at', '<', before[0]), eb.and([eb('api_keys.created_at', '=', before[0]), eb('api_keys.id', '<', before[1])])]),
      );
    }
    const rows = await query.orderBy('api_keys.created_at', 'desc').orderBy('api_keys.id', 'desc').limit(limit).execute();
    return rows.map(({ account_email, ...row }) => ({ ...fromRow(row), accountEmail: account_email ?? null }));
  }

  /** The ids of disabled accounts, whose keys stop working. */
  async disabledAccountIds(): Promise<string[]> {
    const rows = await this.db.selectFrom('accounts').select('id').where('disabled_at', 'is not', null).execute();
    return rows.map((row) => row.id);
  }
}
