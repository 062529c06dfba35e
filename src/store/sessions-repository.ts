/** Browser sessions of the dashboard; a session's id is the SHA-256 of its cookie token. */
import type { Kysely, Selectable } from 'kysely';
import type { Database, SessionsTable } from './schema.js';

export type StoredSession = Selectable<SessionsTable>;

export class SessionsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(session: StoredSession): Promise<void> {
    await this.db.insertInto('sessions').values(session).execute();
  }

  async find(id: string, now: number): Promise<StoredSession | undefined> {
    return this.db.selectFrom('sessions').selectAll().where('id', '=', id).where('expires_at', '>', now).executeTakeFirst();
  }

  async touch(id: string, now: number, expiresAt: number): Promise<void> {
    await this.db.updateTable('sessions').set({ last_seen_at: now, expires_at: expiresAt }).where('id', '=', id).execute();
  }

  async delete(id: string): Promise<void> {
    await this.db.deleteFrom('sessions').where('id', '=', id).execute();
  }

  /** Signs an account out everywhere; returns how many sessions ended. */
  async deleteForAccount(accountId: string): Promise<number> {
    const result = await this.db.deleteFrom('sessions').where('account_id', '=', accountId).executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  /** Ends every session of the account but `keepId`. */
  async deleteOthers(accountId: string, keepId: string): Promise<void> {
    await this.db.deleteFrom('sessions').where('account_id', '=', accountId).where('id', '!=', keepId).execute();
  }

  async deleteExpired(now: number): Promise<void> {
    await this.db.deleteFrom('sessions').where('expires_at', '<=', now).execute();
  }
}
