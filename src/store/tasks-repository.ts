/**
 * Task rows, their ledger and their webhook deliveries. Every change is a compare-and-set: a
 * poller changes a task only while it holds the task's lease, and a terminal status is written
 * only over a non-terminal one, in the same transaction as the ledger's move (the task's one
 * settlement or refund and its usage row, `src/ledger/reservations.ts`) and its webhook delivery —
 * so two processes can never both finish a task.
 */
import { type Kysely, type SelectQueryBuilder, sql, type Transaction, type Updateable } from 'kysely';
import type { Task, TaskStatus } from '../core/task.js';
import { type LedgerEntry, type LedgerMove, ledgerEntries, ledgerWrites } from './ledger-writes.js';
import type { Database, TasksTable } from './schema.js';
import { type StoredTask, taskFromRow } from './task-rows.js';
import type { UsageTarget } from './usage-repository.js';
import { insertDelivery } from './webhook-deliveries-repository.js';

export type { StoredTask } from './task-rows.js';

const ACTIVE: TaskStatus[] = ['submitted', 'running'];
const NOT_TERMINAL: TaskStatus[] = ['queued', 'submitted', 'running'];

/** A task's row as submitted: the task's own fields, plus what only the store keeps. */
interface NewTask extends Pick<Task, 'id' | 'owner' | 'surface' | 'operation' | 'model' | 'request' | 'parentId' | 'priceNusd' | 'callback' | 'createdAt'> {
  /** The account of the submitting key (null: an operator key or the master key). */
  accountId?: string | null;
  callbackToken: string;
  deadlineAt: number;
  /** The submitting process holds the queued row until the upstream answered. */
  leaseOwner: string;
  leaseUntil: number;
}

/** A client webhook to queue with a change; its id is stable per task version. */
export interface NewDelivery {
  url: string;
  body: string;
}

type TaskPatch = Updateable<TasksTable>;

/** What finishing a task writes besides the task: the ledger's move (settle or release) and the client webhook. */
interface Finishing {
  money: (task: StoredTask) => LedgerMove;
  delivery?: (task: StoredTask) => NewDelivery | undefined;
}

type Db = Kysely<Database> | Transaction<Database>;
type IdQuery = SelectQueryBuilder<Database, 'tasks', { id: string }>;

export class TasksRepository {
  /** `store`: its dialect, and on SQLite its raw handle (the ledger's usage rows go by prepared statements). */
  constructor(
    private readonly db: Kysely<Database>,
    private readonly store: UsageTarget,
  ) {}

  private get dialect(): UsageTarget['dialect'] {
    return this.store.dialect;
  }

  /** The row is written, and the price reserved (`reserve`, the ledger's move), before any upstream sees the task. */
  async insertQueued(task: NewTask, reserve: LedgerMove): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx
        .insertInto('tasks')
        .values({
          id: task.id,
          owner: task.owner,
          surface: task.surface,
          operation: task.operation,
          model: task.model,
          request: JSON.stringify(task.request),
          parent_id: task.parentId ?? null,
          channel: null,
          provider: null,
          upstream_model: null,
          upstream_id: null,
          upstream_data: null,
          status: 'queued',
          vendor_status: null,
          progress: 0,
          result: null,
          error_code: null,
          error_message: null,
          price_nusd: task.priceNusd,
          callback_url: task.callback?.url ?? null,
          callback_state: task.callback?.state ?? null,
          callback_token: task.callbackToken,
          created_at: task.createdAt,
          submitted_at: null,
          started_at: null,
          finished_at: null,
          updated_at: task.createdAt,
          deadline_at: task.deadlineAt,
          next_poll_at: task.deadlineAt,
          poll_count: 0,
          lease_owner: task.leaseOwner,
          lease_until: task.leaseUntil,
          version: 1,
          deleted_at: null,
          account_id: task.accountId ?? null,
        })
        .execute();
      await reserve(ledgerWrites(trx, this.store));
    });
  }

  /**
   * Applies a change to a task not yet finished, only while `leaseOwner` holds it (`null`: the
   * submitting request, which holds a queued row). A change a client can see bumps the version
   * and queues its webhook in the same transaction. Resolves the task, or undefined when the
   * lease or the status had moved on.
   */
  async update(
    id: string,
    leaseOwner: string | null,
    patch: TaskPatch,
    visible: boolean,
    delivery?: (task: StoredTask) => NewDelivery | undefined,
  ): Promise<StoredTask | undefined> {
    const change = async (db: Db): Promise<StoredTask | undefined> => {
      let query = db
        .updateTable('tasks')
        .set(visible ? { ...patch, version: sql<number>`version + 1` } : patch)
        .where('id', '=', id)
        .where('status', 'in', NOT_TERMINAL);
      if (leaseOwner !== null) query = query.where('lease_owner', '=', leaseOwner);
      const row = await query.returningAll().executeTakeFirst();
      if (!row) return undefined;
      const task = taskFromRow(row);
      if (visible && delivery) await enqueue(db, task, delivery(task));
      return task;
    };
    // One statement needs no transaction of its own (on PostgreSQL that saves BEGIN and COMMIT round trips per poll).
    return visible && delivery ? this.db.transaction().execute(change) : change(this.db);
  }

  /**
   * Writes a submit's upstream acceptance over the task's queued row, whoever holds its lease now:
   * the submitter may have lost its submit lease while the upstream took its time (a sweep then
   * took the row, suspecting the submit dead). Only a row still `queued` without an upstream id
   * takes it — a task nobody finished or submitted elsewhere; its sweep's lease is cleared with it.
   * Visible: the version moves and the webhook is queued in the same transaction.
   */
  async recordSubmission(id: string, patch: TaskPatch, delivery?: (task: StoredTask) => NewDelivery | undefined): Promise<StoredTask | undefined> {
    return this.db.transaction().execute(async (trx) => {
      const row = await trx
        .updateTable('tasks')
        .set({ ...patch, version: sql<number>`version + 1` })
        .where('id', '=', id)
        .where('status', '=', 'queued')
        .where('upstream_id', 'is', null)
        .returningAll()
        .executeTakeFirst();
      if (!row) return undefined;
      const task = taskFromRow(row);
      if (delivery) await enqueue(trx, task, delivery(task));
      return task;
    });
  }

  /**
   * Keeps, on a task already ended without an upstream id (its submit swept as interrupted), the
   * upstream job its submit started after all; status, error and ledger stay as they are.
   * Resolves the task, or undefined when it is not such a task.
   */
  async recordLateUpstream(
    id: string,
    patch: Pick<TaskPatch, 'channel' | 'provider' | 'upstream_model' | 'upstream_id' | 'upstream_data'>,
  ): Promise<StoredTask | undefined> {
    const row = await this.db
      .updateTable('tasks')
      .set(patch)
      .where('id', '=', id)
      .where('status', 'not in', NOT_TERMINAL)
      .where('upstream_id', 'is', null)
      .returningAll()
      .executeTakeFirst();
    return row ? taskFromRow(row) : undefined;
  }

  /**
   * Moves a task to a terminal status once: only over a non-terminal status (and, with
   * `leaseOwner`, only while it holds the lease), with the ledger's move (its settlement or
   * refund and usage row) and its webhook in the same transaction. Undefined when another process finished it first.
   */
  async finish(id: string, leaseOwner: string | null, patch: TaskPatch, finishing: Finishing): Promise<StoredTask | undefined> {
    return this.db.transaction().execute(async (trx) => {
      let query = trx
        .updateTable('tasks')
        .set({ ...patch, lease_owner: null, lease_until: 0, version: sql<number>`version + 1` })
        .where('id', '=', id)
        .where('status', 'in', NOT_TERMINAL);
      if (leaseOwner !== null) query = query.where('lease_owner', '=', leaseOwner);
      const row = await query.returningAll().executeTakeFirst();
      if (!row) return undefined;
      const task = taskFromRow(row);
      await finishing.money(task)(ledgerWrites(trx, this.store));
      if (finishing.delivery) await enqueue(trx, task, finishing.delivery(task));
      return task;
    });
  }

  /** Channels with tasks due for a poll and free to take (a task without a channel never is). */
  async dueChannels(now: number, limit = 256): Promise<string[]> {
    const rows = await this.db
      .selectFrom('tasks')
      .select('channel')
      .distinct()
      .where('status', 'in', ACTIVE)
      .where('next_poll_at', '<=', now)
      .where('lease_until', '<=', now)
      .where('channel', 'is not', null)
      .limit(limit)
      .execute();
    return rows.map((row) => row.channel as string);
  }

  /** Takes up to `limit` due tasks of one channel under a lease; another process skips them. */
  async claimDue(channel: string, now: number, limit: number, leaseOwner: string, leaseMs: number): Promise<StoredTask[]> {
    return this.claim(
      (ids) =>
        ids
          .where('status', 'in', ACTIVE)
          .where('channel', '=', channel)
          .where('next_poll_at', '<=', now)
          .where('lease_until', '<=', now)
          .orderBy('next_poll_at')
          .limit(limit),
      now,
      leaseOwner,
      leaseMs,
    );
  }

  /** Queued tasks whose submitting process is gone (its lease ran out before the upstream answered). */
  async claimStaleQueued(now: number, limit: number, leaseOwner: string, leaseMs: number): Promise<StoredTask[]> {
    return this.claim((ids) => ids.where('status', '=', 'queued').where('lease_until', '<=', now).orderBy('created_at').limit(limit), now, leaseOwner, leaseMs);
  }

  private async claim(filter: (ids: IdQuery) => IdQuery, now: number, leaseOwner: string, leaseMs: number): Promise<StoredTask[]> {
    // Materialized: as a plain subquery PostgreSQL may rescan it per candidate row, and each
    // rescan (with SKIP LOCKED and LIMIT) can pick other rows, claiming more than the limit.
    const rows = await this.db
      .with(
        (cte) => cte('due').materialized(),
        (db) => {
          const due = filter(db.selectFrom('tasks').select('id'));
          return this.dialect === 'postgres' ? due.forUpdate().skipLocked() : due;
        },
      )
      .updateTable('tasks')
      .set({ lease_owner: leaseOwner, lease_until: now + leaseMs })
      .where('id', 'in', (eb) => eb.selectFrom('due').select('id'))
      .where('lease_until', '<=', now)
      .where('status', 'in', NOT_TERMINAL)
      .returningAll()
      .execute();
    return rows.map(taskFromRow);
  }

  async findByToken(token: string): Promise<StoredTask | undefined> {
    const row = await this.db.selectFrom('tasks').selectAll().where('callback_token', '=', token).executeTakeFirst();
    return row ? taskFromRow(row) : undefined;
  }

  /** Extends a lease this process still holds (before a long step such as a download); false when it was lost. */
  async renewLease(id: string, leaseOwner: string, until: number): Promise<boolean> {
    return (await this.renewLeases([id], leaseOwner, until)) === 1;
  }

  /** Extends, in one statement, the leases `leaseOwner` still holds among `ids` (the heartbeat); returns how many. */
  async renewLeases(ids: readonly string[], leaseOwner: string, until: number): Promise<number> {
    if (ids.length === 0) return 0;
    const result = await this.db
      .updateTable('tasks')
      .set({ lease_until: until })
      .where('id', 'in', ids)
      .where('lease_owner', '=', leaseOwner)
      .where('status', 'in', NOT_TERMINAL)
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  }

  /** Gives a task back after a poll that did not finish it, with its next poll time. */
  async release(id: string, leaseOwner: string, patch: TaskPatch): Promise<void> {
    await this.db
      .updateTable('tasks')
      .set({ ...patch, lease_owner: null, lease_until: 0 })
      .where('id', '=', id)
      .where('lease_owner', '=', leaseOwner)
      .execute();
  }

  /** An upstream callback arrived: the task is polled at once. Resolves the task it names, if active. */
  async wakeByToken(token: string, now: number): Promise<StoredTask | undefined> {
    const row = await this.db
      .updateTable('tasks')
      .set({ next_poll_at: now })
      .where('callback_token', '=', token)
      .where('status', 'in', ACTIVE)
      .returningAll()
      .executeTakeFirst();
    return row ? taskFromRow(row) : undefined;
  }

  async get(id: string): Promise<StoredTask | undefined> {
    const row = await this.db.selectFrom('tasks').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? taskFromRow(row) : undefined;
  }

  /** The task if `owner` created it; another owner's id answers like an unknown one. */
  async findForOwner(id: string, owner: string): Promise<StoredTask | undefined> {
    const row = await this.db
      .selectFrom('tasks')
      .selectAll()
      .where('id', '=', id)
      .where('owner', '=', owner)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    return row ? taskFromRow(row) : undefined;
  }

  /** One page of an owner's tasks of one operation, by creation time, after the task `after`. */
  async pageForOwner(
    owner: string,
    query: { operation: string; limit: number; after?: string; order: 'asc' | 'desc' },
  ): Promise<{ tasks: StoredTask[]; hasMore: boolean }> {
    let select = this.db.selectFrom('tasks').selectAll().where('owner', '=', owner).where('operation', '=', query.operation).where('deleted_at', 'is', null);
    if (query.after !== undefined) {
      const anchor = await this.findForOwner(query.after, owner);
      if (!anchor) return { tasks: [], hasMore: false };
      const op = query.order === 'desc' ? '<' : '>';
      select = select.where((eb) =>
        eb.or([eb('created_at', op, anchor.createdAt), eb.and([eb('created_at', '=', anchor.createdAt), eb('id', op, anchor.id)])]),
      );
    }
    const rows = await select
      .orderBy('created_at', query.order)
      .orderBy('id', query.order)
      .limit(query.limit + 1)
      .execute();
    return { tasks: rows.slice(0, query.limit).map(taskFromRow), hasMore: rows.length > query.limit };
  }

  /** Hides a finished task from its owner's lookups (the row stays for the ledger). */
  async markDeleted(id: string, owner: string, now: number): Promise<boolean> {
    const result = await this.db
      .updateTable('tasks')
      .set({ deleted_at: now })
      .where('id', '=', id)
      .where('owner', '=', owner)
      .where('deleted_at', 'is', null)
      .where('status', 'in', ['succeeded', 'failed', 'canceled'])
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  async listForOwner(owner: string, ids: readonly string[]): Promise<StoredTask[]> {
    if (ids.length === 0) return [];
    const rows = await this.db.selectFrom('tasks').selectAll().where('owner', '=', owner).where('id', 'in', ids).where('deleted_at', 'is', null).execute();
    const byId = new Map(rows.map((row) => [row.id, taskFromRow(row)]));
    return ids.flatMap((id) => byId.get(id) ?? []);
  }

  ledger(taskId: string): Promise<LedgerEntry[]> {
    return ledgerEntries(this.db, taskId);
  }

  async countByStatus(): Promise<Record<string, number>> {
    const rows = await this.db
      .selectFrom('tasks')
      .select(['status', (eb) => eb.fn.countAll<number>().as('count')])
      .groupBy('status')
      .execute();
    return Object.fromEntries(rows.map((row) => [row.status, Number(row.count)]));
  }
}

async function enqueue(db: Db, task: StoredTask, delivery: NewDelivery | undefined): Promise<void> {
  if (!delivery) return;
  await insertDelivery(db, {
    id: `${task.id}.${task.version}`,
    taskId: task.id,
    owner: task.owner,
    url: delivery.url,
    body: delivery.body,
    now: task.updatedAt,
  });
}
