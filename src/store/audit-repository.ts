/** The admin audit log: appended to, listed newest first. */
import type { Insertable, Kysely, Selectable } from 'kysely';
import type { AuditLogTable, Database } from './schema.js';

export type AuditEntry = Selectable<AuditLogTable>;

interface AuditFilter {
  action?: string;
  actorId?: string;
  /** Entries older than this `[at, id]` (the previous page's last). */
  before?: [number, number];
}

export class AuditRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async append(entry: Insertable<AuditLogTable>): Promise<void> {
    await this.db.insertInto('audit_log').values(entry).execute();
  }

  async list(filter: AuditFilter, limit: number): Promise<AuditEntry[]> {
    let query = this.db.selectFrom('audit_log').selectAll().orderBy('at', 'desc').orderBy('id', 'desc').limit(limit);
    if (filter.action) query = query.where('action', '=', filter.action);
    if (filter.actorId) query = query.where('actor_id', '=', filter.actorId);
    if (filter.before) {
      const [at, id] = filter.before;
      query = query.where((eb) => eb.or([eb('at', '<', at), eb.and([eb('at', '=', at), eb('id', '<', id)])]));
    }
    return query.execute();
  }
}
