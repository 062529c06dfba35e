/** API keys in the store: only their hashes are kept. Every change bumps the `keys` revision (see store-revisions.ts). */
import type { Kysely } from 'kysely';
import type { Selectable } from 'kysely';
import type { ApiKeysTable, Database } from './schema.js';
import { bumpRevision } from './store-revisions.js';

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

  async insert(key: StoredApiKey): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
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
        })
        .execute();
      await bumpRevision(trx, 'keys');
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
      if (revoked) await bumpRevision(trx, 'keys');
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
