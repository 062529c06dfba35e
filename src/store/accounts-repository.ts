/** Accounts and their one-time links (the link's token is stored only as its SHA-256). */
import type { Kysely, Selectable } from 'kysely';
import type { AccountRole, AccountsTable, Database } from './schema.js';
import { bumpRevision } from './store-revisions.js';

export interface Account {
  id: string;
  email: string;
  role: AccountRole;
  passwordHash: string | null;
  models: string[] | null;
  createdAt: number;
  updatedAt: number;
  disabledAt: number | null;
}

function fromRow(row: Selectable<AccountsTable>): Account {
  return {
    id: row.id,
    email: row.email,
    role: row.role,
    passwordHash: row.password_hash,
    models: row.models === null ? null : (JSON.parse(row.models) as string[]),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    disabledAt: row.disabled_at,
  };
}

interface AccountChanges {
  email?: string;
  role?: AccountRole;
  passwordHash?: string;
  models?: string[] | null;
  disabledAt?: number | null;
}

export class AccountsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(account: Account): Promise<void> {
    await this.db
      .insertInto('accounts')
      .values({
        id: account.id,
        email: account.email,
        role: account.role,
        password_hash: account.passwordHash,
        models: account.models === null ? null : JSON.stringify(account.models),
        created_at: account.createdAt,
        updated_at: account.updatedAt,
        disabled_at: account.disabledAt,
      })
      .execute();
  }

  async findById(id: string): Promise<Account | undefined> {
    const row = await this.db.selectFrom('accounts').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? fromRow(row) : undefined;
  }

  async findByEmail(email: string): Promise<Account | undefined> {
    const row = await this.db.selectFrom('accounts').selectAll().where('email', '=', email.toLowerCase()).executeTakeFirst();
    return row ? fromRow(row) : undefined;
  }

  async list(): Promise<Account[]> {
    return (await this.db.selectFrom('accounts').selectAll().orderBy('created_at').orderBy('id').execute()).map(fromRow);
  }

  /** Whether any admin account can sign in (has a password and is not disabled). */
  async hasUsableAdmin(): Promise<boolean> {
    const row = await this.db
      .selectFrom('accounts')
      .select('id')
      .where('role', '=', 'admin')
      .where('password_hash', 'is not', null)
      .where('disabled_at', 'is', null)
      .executeTakeFirst();
    return row !== undefined;
  }

  /** Disabling or enabling an account bumps the `keys` revision: its keys stop or start working in every process. */
  async update(id: string, changes: AccountChanges, now = Date.now()): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const result = await trx
        .updateTable('accounts')
        .set({
          ...(changes.email !== undefined ? { email: changes.email.trim().toLowerCase() } : {}),
          ...(changes.role !== undefined ? { role: changes.role } : {}),
          ...(changes.passwordHash !== undefined ? { password_hash: changes.passwordHash } : {}),
          ...(changes.models !== undefined ? { models: changes.models === null ? null : JSON.stringify(changes.models) } : {}),
          ...(changes.disabledAt !== undefined ? { disabled_at: changes.disabledAt } : {}),
          updated_at: now,
        })
        .where('id', '=', id)
        .executeTakeFirst();
      const updated = Number(result.numUpdatedRows) > 0;
      if (updated && changes.disabledAt !== undefined) await bumpRevision(trx, 'keys');
      return updated;
    });
  }

  /** Stores a one-time link (by the hash of its token); earlier unused links of the account for the same purpose stop working. */
  async createLink(link: { idHash: string; accountId: string; purpose: 'setup'; createdAt: number; expiresAt: number }): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx
        .updateTable('account_links')
        .set({ used_at: link.createdAt })
        .where('account_id', '=', link.accountId)
        .where('purpose', '=', link.purpose)
        .where('used_at', 'is', null)
        .execute();
      await trx
        .insertInto('account_links')
        .values({ id: link.idHash, account_id: link.accountId, purpose: link.purpose, created_at: link.createdAt, expires_at: link.expiresAt, used_at: null })
        .execute();
    });
  }

  /** The account a live link (unused, unexpired) belongs to. */
  async accountOfLink(idHash: string, now: number): Promise<Account | undefined> {
    const link = await this.db
      .selectFrom('account_links')
      .select('account_id')
      .where('id', '=', idHash)
      .where('used_at', 'is', null)
      .where('expires_at', '>', now)
      .executeTakeFirst();
    return link ? this.findById(link.account_id) : undefined;
  }

  /**
   * Uses a live link to set the account's password, once: the link is marked used by a
   * compare-and-set, so two concurrent uses cannot both succeed. Returns the account, or undefined.
   */
  async useLink(idHash: string, passwordHash: string, now: number): Promise<Account | undefined> {
    return this.db.transaction().execute(async (trx) => {
      const link = await trx
        .updateTable('account_links')
        .set({ used_at: now })
        .where('id', '=', idHash)
        .where('used_at', 'is', null)
        .where('expires_at', '>', now)
        .returning('account_id')
        .executeTakeFirst();
      if (!link) return undefined;
      await trx.updateTable('accounts').set({ password_hash: passwordHash, updated_at: now }).where('id', '=', link.account_id).execute();
      const row = await trx.selectFrom('accounts').selectAll().where('id', '=', link.account_id).executeTakeFirst();
      return row ? fromRow(row) : undefined;
    });
  }
}
