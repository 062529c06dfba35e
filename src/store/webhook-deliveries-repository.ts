/**
 * The client-webhook outbox. The engine inserts one delivery per task version inside its own
 * transaction; the dispatcher claims due deliveries under a lease (so two gateway processes on
 * one PostgreSQL database never send the same delivery at once), then records the outcome.
 * Claims are fair: round-robin across tenants, and capped per tenant and per receiver host
 * counting every process's deliveries in flight (see `claimDue`).
 */
import { type Kysely, type RawBuilder, sql, type Transaction } from 'kysely';
import type { Database, WebhookDeliveriesTable } from './schema.js';
import type { StoreDialect } from './store-dialect.js';

export type WebhookDelivery = WebhookDeliveriesTable;

interface NewWebhookDelivery {
  /** `<task id>.<task version>`. */
  id: string;
  taskId: string;
  owner: string;
  url: string;
  /** The JSON body, sent as stored. */
  body: string;
  now: number;
}

/** How many deliveries may be in flight at once, over every gateway process on the database. */
export interface ClaimCaps {
  /** Per tenant: the key's account, or the key itself when it has none. */
  perTenant: number;
  /** Per receiver host (`host:port` of the URL). */
  perHost: number;
}

const UNCAPPED: ClaimCaps = { perTenant: Number.MAX_SAFE_INTEGER, perHost: Number.MAX_SAFE_INTEGER };

/** Any value, locking only the claims of the webhook outbox against each other (PostgreSQL). */
const CLAIM_LOCK = 0x6767_7768;

/** The receiver host a delivery is capped and judged by: `host:port` of its URL (the URL itself when it does not parse). */
export function receiverHostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
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
      host: receiverHostOf(delivery.url),
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
   * Leases up to `limit` pending deliveries that are due and not leased, until `now + leaseMs`.
   * Fair: each tenant's oldest due delivery comes before any tenant's second (round-robin across
   * tenants, oldest first within a round), and a tenant or a receiver host already at its cap —
   * counting the deliveries every process holds leased — gets no more. So a tenant whose receiver
   * hangs fills its own share of the slots, never everyone's. On PostgreSQL claims take turns
   * (a transaction lock), so two processes never both fill the same cap; SQLite has one writer,
   * so the statement alone is atomic.
   */
  async claimDue(now: number, limit: number, leaseMs: number, caps: ClaimCaps = UNCAPPED): Promise<WebhookDelivery[]> {
    if (limit <= 0) return [];
    // Each key's oldest due deliveries, never more than its tenant could take: found by walking the
    // keys with pending deliveries in the (status, owner, next_attempt_at) index, so a tenant with a
    // large due backlog costs the claim a few rows, not a scan of its backlog.
    const perKey = Math.min(caps.perTenant, limit);
    const keyDue = (owner: RawBuilder<unknown>) => sql`
      SELECT x.id FROM webhook_deliveries x
      WHERE x.status = 'pending' AND x.owner = ${owner} AND x.next_attempt_at <= ${now} AND x.lease_until <= ${now}
      ORDER BY x.next_attempt_at LIMIT ${perKey}`;
    const candidates =
      this.dialect === 'postgres'
        ? sql`SELECT c.id FROM owners o CROSS JOIN LATERAL (${keyDue(sql.ref('o.owner'))}) c WHERE o.owner IS NOT NULL`
        : sql`SELECT d.id FROM owners o JOIN webhook_deliveries d ON d.id IN (${keyDue(sql.ref('o.owner'))}) WHERE o.owner IS NOT NULL`;
    // PostgreSQL checks again on the row actually updated (a row changed since the statement's snapshot
    // stays as it is). A SQLite statement sees no other writer, and the check would make its planner
    // walk the status index instead of looking the picked ids up.
    const recheck = this.dialect === 'postgres' ? sql`AND status = 'pending' AND lease_until <= ${now}` : sql``;
    const claim = async (db: Kysely<Database>): Promise<WebhookDelivery[]> => {
      const { rows } = await sql<WebhookDelivery>`
        WITH RECURSIVE owners(owner) AS (
          SELECT MIN(owner) FROM webhook_deliveries WHERE status = 'pending'
          UNION ALL
          SELECT (SELECT MIN(n.owner) FROM webhook_deliveries n WHERE n.status = 'pending' AND n.owner > o.owner)
          FROM owners o WHERE o.owner IS NOT NULL
        ),
        -- Every change of status clears the lease, so a live lease is a pending delivery in flight (read by the lease index alone).
        leased AS MATERIALIZED (
          SELECT COALESCE(k.account_id, d.owner) AS tenant, COALESCE(d.host, d.url) AS receiver
          FROM webhook_deliveries d LEFT JOIN api_keys k ON k.id = d.owner
          WHERE d.lease_until > ${now}
        ),
        tenant_busy AS MATERIALIZED (SELECT tenant, COUNT(*) AS busy FROM leased GROUP BY tenant),
        host_busy AS MATERIALIZED (SELECT receiver, COUNT(*) AS busy FROM leased GROUP BY receiver),
        due AS MATERIALIZED (
          SELECT d.id, d.next_attempt_at, COALESCE(k.account_id, d.owner) AS tenant, COALESCE(d.host, d.url) AS receiver
          FROM webhook_deliveries d LEFT JOIN api_keys k ON k.id = d.owner
          WHERE d.id IN (${candidates})
        ),
        by_tenant AS MATERIALIZED (
          SELECT due.id, due.next_attempt_at, due.receiver,
            ROW_NUMBER() OVER (PARTITION BY due.tenant ORDER BY due.next_attempt_at, due.id) + COALESCE(t.busy, 0) AS tenant_rank
          FROM due LEFT JOIN tenant_busy t ON t.tenant = due.tenant
        ),
        -- A host's places go round-robin across tenants too, among the deliveries their tenant's cap lets through.
        by_host AS MATERIALIZED (
          SELECT e.id, e.next_attempt_at, e.tenant_rank,
            ROW_NUMBER() OVER (PARTITION BY e.receiver ORDER BY e.tenant_rank, e.next_attempt_at, e.id) + COALESCE(h.busy, 0) AS host_rank
          FROM by_tenant e LEFT JOIN host_busy h ON h.receiver = e.receiver
          WHERE e.tenant_rank <= ${caps.perTenant}
        ),
        picked AS MATERIALIZED (
          SELECT id FROM by_host
          WHERE host_rank <= ${caps.perHost}
          ORDER BY tenant_rank, next_attempt_at, id
          LIMIT ${limit}
        )
        UPDATE webhook_deliveries SET lease_until = ${now + leaseMs}
        WHERE id IN (SELECT id FROM picked) ${recheck}
        RETURNING *`.execute(db);
      return rows;
    };
    const rows =
      this.dialect === 'postgres'
        ? await this.db.transaction().execute(async (trx) => {
            await sql`SELECT pg_advisory_xact_lock(${CLAIM_LOCK})`.execute(trx);
            return claim(trx);
          })
        : await claim(this.db);
    return rows.sort((a, b) => a.next_attempt_at - b.next_attempt_at || a.id.localeCompare(b.id));
  }

  /**
   * Puts off, without an attempt, the delivery `id` (leased by the caller) and every other due,
   * unleased delivery of the same owner to the same receiver host: that receiver is failing, so
   * none of them opens a connection before `until`.
   */
  async deferReceiver(id: string, owner: string, host: string, now: number, until: number): Promise<void> {
    await this.db
      .updateTable('webhook_deliveries')
      .set({ next_attempt_at: until, lease_until: 0 })
      .where('status', '=', 'pending')
      .where((eb) =>
        eb.or([eb('id', '=', id), eb.and([eb('owner', '=', owner), eb('host', '=', host), eb('next_attempt_at', '<', until), eb('lease_until', '<=', now)])]),
      )
      .execute();
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
