/** Failed sign-ins, counted per email and per address over a window (shared by every replica through the store). */
import type { Kysely } from 'kysely';
import type { Database } from './schema.js';

export class LoginFailuresRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async record(email: string, ip: string, at: number): Promise<void> {
    await this.db.insertInto('login_failures').values({ email, ip, at }).execute();
  }

  async countSince(column: 'email' | 'ip', value: string, since: number): Promise<number> {
    const row = await this.db
      .selectFrom('login_failures')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where(column, '=', value)
      .where('at', '>', since)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** A successful sign-in forgives the email's failures. */
  async clearEmail(email: string): Promise<void> {
    await this.db.deleteFrom('login_failures').where('email', '=', email).execute();
  }

  async deleteBefore(at: number): Promise<void> {
    await this.db.deleteFrom('login_failures').where('at', '<=', at).execute();
  }
}
