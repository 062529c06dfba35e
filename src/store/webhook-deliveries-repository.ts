/**
 * The client-webhook outbox. The engine inserts one delivery per task version inside its own
 * transaction; the dispatcher claims due deliveries under a lease (so two gateway processes on
 * one PostgreSQL database never send the same delivery at once), then records the outcome.
 */
import type { Kysely, Transaction } from 'kysely';
import type { Database, WebhookDeliveriesTable } from './schema.js';
import type { StoreDialect } from './store-dialect.js';

export type WebhookDelivery = WebhookDeliveriesTable;

export interface NewWebhookDelivery {
  /** `<task id>.<task version>`. */
  id: string;
  taskId: string;
  owner: string;
  url: string;
  /** The JSON body, sent as stored. */
  body: string;
  now: number;
}

/** Longest `last_error` kept; a receiver's answer or a network message can be long. */
export const MAX_LAST_ERROR_CHARS = 1000;

function boundedError(text: string): string {
  return text.length <= MAX_LAST_ERROR_CHARS ? text : `${text.slice(0, MAX_LAST_ERROR_CHARS - 1)}…`;
}

/** Inserts a pending delivery; an id already there (a restart enqueueing the same version) inserts nothing. */
export async function insertDelivery(db: Kysely<Database> | Transaction<Database>, delivery: NewWebhookDelivery): Promise<void> {
  await db
    .insertInto('webhook_deliveries')
    .values({
      id: delivery.id,
      task_id: delivery.taskId,
      owner: delivery.owner,
      url: delivery.url,
      body: delivery.body,
      status: 'pending',
      attempts: 0,
      next_attempt_at: delivery.now,
      lease_until: 0,
      last_error: null,
      created_at: delivery.now,
      delivered_at: null,
    })
    .onConflict((conflict) => conflict.column('id').doNothing())
    .execute();
}

export class WebhookDeliveriesRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: StoreDialect,
  ) {}

  /**
   * Leases up to `limit` pending deliveries that are due and not leased, oldest due first, until
   * `now + leaseMs`. On PostgreSQL rows another claimer holds are skipped, never waited for; SQLite
   * has one writer, so the conditional update alone is atomic.
   */
  async claimDue(now: number, limit: number, leaseMs: number): Promise<WebhookDelivery[]> {
    if (limit <= 0) return [];
    // Materialized: as a plain subquery PostgreSQL may rescan it once per candidate row, and each
    // rescan (with SKIP LOCKED and LIMIT) can pick other rows, claiming more than the limit.
    const rows = await this.db
      .with(
        (cte) => cte('due').materialized(),
        (db) => {
          const due = db
            .selectFrom('webhook_deliveries')
            .select('id')
            .where('status', '=', 'pending')
            .where('next_attempt_at', '<=', now)
            .where('lease_until', '<=', now)
            .orderBy('next_attempt_at')
            .limit(limit);
          return this.dialect === 'postgres' ? due.forUpdate().skipLocked() : due;
        },
      )
      .updateTable('webhook_deliveries')
      .set({ lease_until: now + leaseMs })
      .where('id', 'in', (eb) => eb.selectFrom('due').select('id'))
      // Checked again on the row actually updated: a row leased by someone else in between stays theirs.
      .where('status', '=', 'pending')
      .where('lease_until', '<=', now)
      .returningAll()
      .execute();
    return rows.sort((a, b) => a.next_attempt_at - b.next_attempt_at || a.id.localeCompare(b.id));
  }

  /** Counts the attempt that succeeded. A delivery no longer pending is left as it is. */
  async markDelivered(id: string, now: number): Promise<void> {
    await this.db
      .updateTable('webhook_deliveries')
      .set((eb) => ({ status: 'delivered', delivered_at: now, lease_until: 0, last_error: null, attempts: eb('attempts', '+', 1) }))
      .where('id', '=', id)
      .where('status', '=', 'pending')
      .execute();
  }

  /** After a failed attempt: `attempts` made so far, the next one not before `nextAttemptAt`. */
  async reschedule(id: string, attempts: number, nextAttemptAt: number, lastError: string): Promise<void> {
    await this.db
      .updateTable('webhook_deliveries')
      .set({ attempts, next_attempt_at: nextAttemptAt, lease_until: 0, last_error: boundedError(lastError) })
      .where('id', '=', id)
      .where('status', '=', 'pending')
      .execute();
  }

  /** Gives up on a delivery; `attempts` when an attempt was made (a refused URL makes none). */
  async markDead(id: string, lastError: string, attempts?: number): Promise<void> {
    await this.db
      .updateTable('webhook_deliveries')
      .set({ status: 'dead', lease_until: 0, last_error: boundedError(lastError), ...(attempts === undefined ? {} : { attempts }) })
      .where('id', '=', id)
      .where('status', '=', 'pending')
      .execute();
  }

  async listForTask(taskId: string): Promise<WebhookDelivery[]> {
    return this.db.selectFrom('webhook_deliveries').selectAll().where('task_id', '=', taskId).orderBy('created_at').orderBy('id').execute();
  }

  async pendingCount(): Promise<number> {
    const row = await this.db
      .selectFrom('webhook_deliveries')
      .select((eb) => eb.fn.countAll<number | string>().as('count'))
      .where('status', '=', 'pending')
      .executeTakeFirstOrThrow();
    return Number(row.count);
  }
}
