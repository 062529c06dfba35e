/**
 * Task listings for the admin API: every account's tasks (or one account's), newest first,
 * filtered by family (the surface), status and key, paged by `(created_at, id)`.
 */
import type { Kysely } from 'kysely';
import type { Database } from './schema.js';
import { type StoredTask, taskFromRow } from './task-rows.js';

interface TaskListFilter {
  /** Only this account's tasks (a member's listing); absent: every account's. */
  accountId?: string;
  surface?: string;
  status?: string;
  keyId?: string;
  /** Tasks older than this `[created_at, id]` (the previous page's last). */
  before?: [number, string];
}

export class TaskAdminQueries {
  constructor(private readonly db: Kysely<Database>) {}

  async list(filter: TaskListFilter, limit: number): Promise<StoredTask[]> {
    let query = this.db.selectFrom('tasks').selectAll().where('deleted_at', 'is', null).orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit);
    if (filter.accountId !== undefined) query = query.where('account_id', '=', filter.accountId);
    if (filter.keyId !== undefined) query = query.where('owner', '=', filter.keyId);
    if (filter.surface !== undefined) query = query.where('surface', '=', filter.surface);
    if (filter.status !== undefined) query = query.where('status', '=', filter.status);
    if (filter.before) {
      const [createdAt, id] = filter.before;
      query = query.where((eb) => eb.or([eb('created_at', '<', createdAt), eb.and([eb('created_at', '=', createdAt), eb('id', '<', id)])]));
    }
    return (await query.execute()).map(taskFromRow);
  }

  /** The task, if it is `accountId`'s (any account's when absent); another account's id answers like an unknown one. */
  async find(id: string, accountId?: string): Promise<StoredTask | undefined> {
    let query = this.db.selectFrom('tasks').selectAll().where('id', '=', id).where('deleted_at', 'is', null);
    if (accountId !== undefined) query = query.where('account_id', '=', accountId);
    const row = await query.executeTakeFirst();
    return row ? taskFromRow(row) : undefined;
  }
}
