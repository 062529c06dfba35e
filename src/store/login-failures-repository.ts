/**
 * Failed password checks, counted over a window per email, per address, per (email, address)
 * pair and per device (shared by every replica through the store).
 */
import type { Kysely } from 'kysely';
import type { Database } from './schema.js';

export interface LoginFailure {
  email: string;
  ip: string;
  /** `device:<id>` or `session:<id>` when the attempt came from a known browser. */
  device?: string;
}

/** Which failures to count: every column given must match. */
type FailureFilter = Partial<LoginFailure>;

export class LoginFailuresRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async record(failure: LoginFailure, at: number): Promise<void> {
    await this.db
      .insertInto('login_failures')
      .values({ email: failure.email, ip: failure.ip, device: failure.device ?? null, at })
      .execute();
  }

  async countSince(filter: FailureFilter, since: number): Promise<number> {
    let query = this.db
      .selectFrom('login_failures')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('at', '>', since);
    if (filter.email !== undefined) query = query.where('email', '=', filter.email);
    if (filter.ip !== undefined) query = query.where('ip', '=', filter.ip);
    if (filter.device !== undefined) query = query.where('device', '=', filter.device);
    const row = await query.executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /**
   * A successful sign-in forgives the failures of its email from its address, and its device's:
   * not the email's failures elsewhere, which would hand a stranger fresh guesses.
   */
  async forgive(email: string, ip: string, device?: string): Promise<void> {
    await this.db
      .deleteFrom('login_failures')
      .where('email', '=', email)
      .where((eb) => (device === undefined ? eb('ip', '=', ip) : eb.or([eb('ip', '=', ip), eb('device', '=', device)])))
      .execute();
  }

  async deleteBefore(at: number): Promise<void> {
    await this.db.deleteFrom('login_failures').where('at', '<=', at).execute();
  }
}
