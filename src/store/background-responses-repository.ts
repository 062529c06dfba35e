/**
 * The durable runs of background responses and their stored stream events. Every change is a
 * compare-and-set: events are appended, and a run's status moves, only by the process holding
 * the run's lease (or, for a cancel, over any status not terminal yet), each append in one
 * transaction with the row locked, so sequence numbers never repeat and nothing is appended
 * after a run's terminal event. A run whose lease ran out (its process died) is claimed again
 * by another pass; the caps on stored events are checked in the append's transaction.
 */
import type { Kysely, Selectable, Transaction } from 'kysely';
import type { Database, BackgroundResponsesTable } from './schema.js';
import type { StoreDialect } from './store-dialect.js';

const NOT_TERMINAL = ['queued', 'in_progress'];

export interface BackgroundRunRow {
  id: string;
  keyJson: string;
  requestId: string;
  body: string;
  stream: boolean;
  status: string;
  attempts: number;
  leaseOwner: string | null;
  finalObject: string | null;
  eventCount: number;
  nextSequence: number;
  createdAt: number;
}

export interface NewBackgroundRun {
  id: string;
  keyId: string;
  accountId: string | null;
  keyJson: string;
  requestId: string;
  body: string;
  stream: boolean;
  /** The creating process runs it at once: it holds the lease from the start. */
  leaseOwner: string;
  leaseUntil: number;
  now: number;
}

/** An event to store; `sequence_number` is set by the append. */
export interface BackgroundEvent {
  type: string;
  [field: string]: unknown;
}

export interface StoredEvent {
  sequence: number;
  type: string;
  data: string;
}

export interface EventCaps {
  maxEvents: number;
  maxBytes: number;
}

function runFromRow(row: Selectable<BackgroundResponsesTable>): BackgroundRunRow {
  return {
    id: row.id,
    keyJson: row.key_json,
    requestId: row.request_id,
    body: row.body,
    stream: Number(row.stream) === 1,
    status: row.status,
    attempts: Number(row.attempts),
    leaseOwner: row.lease_owner,
    finalObject: row.final_object,
    eventCount: Number(row.event_count),
    nextSequence: Number(row.next_sequence),
    createdAt: Number(row.created_at),
  };
}

/** The event's JSON with its sequence number last, as OpenAI's events carry it. */
function eventData(event: BackgroundEvent, sequence: number): string {
  return JSON.stringify({ ...event, sequence_number: sequence });
}

export class BackgroundResponsesRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: StoreDialect,
  ) {}

  /** Written before the client hears of the response; attempt 1 belongs to the creating process. */
  async insert(run: NewBackgroundRun): Promise<void> {
    await this.db
      .insertInto('background_responses')
      .values({
        id: run.id,
        key_id: run.keyId,
        account_id: run.accountId,
        key_json: run.keyJson,
        request_id: run.requestId,
        body: run.body,
        stream: run.stream ? 1 : 0,
        status: 'queued',
        attempts: 1,
        lease_owner: run.leaseOwner,
        lease_until: run.leaseUntil,
        created_at: run.now,
        updated_at: run.now,
      })
      .execute();
  }

  async get(id: string): Promise<BackgroundRunRow | undefined> {
    const row = await this.db.selectFrom('background_responses').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? runFromRow(row) : undefined;
  }

  /** Runs not finished whose lease ran out (their process died or gave them back), each attempt counted. */
  async claimOrphans(now: number, limit: number, leaseOwner: string, leaseMs: number): Promise<BackgroundRunRow[]> {
    const claimed: BackgroundRunRow[] = [];
    await this.db.transaction().execute(async (trx) => {
      let due = trx
        .selectFrom('background_responses')
        .select('id')
        .where('status', 'in', NOT_TERMINAL)
        .where('lease_until', '<=', now)
        .orderBy('created_at')
        .limit(limit);
      if (this.dialect === 'postgres') due = due.forUpdate().skipLocked();
      const ids = (await due.execute()).map((row) => row.id);
      for (const id of ids) {
        const row = await trx
          .updateTable('background_responses')
          .set((eb) => ({ lease_owner: leaseOwner, lease_until: now + leaseMs, attempts: eb('attempts', '+', 1), updated_at: now }))
          .where('id', '=', id)
          .where('status', 'in', NOT_TERMINAL)
          .where('lease_until', '<=', now)
          .returningAll()
          .executeTakeFirst();
        if (row) claimed.push(runFromRow(row));
      }
    });
    return claimed;
  }

  /** Extends the lease of a run still running here; false once it was lost, cancelled or finished. */
  async renewLease(id: string, leaseOwner: string, until: number): Promise<boolean> {
    const result = await this.db
      .updateTable('background_responses')
      .set({ lease_until: until })
      .where('id', '=', id)
      .where('lease_owner', '=', leaseOwner)
      .where('status', 'in', NOT_TERMINAL)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** Gives a run back (shutdown) so that the next pass, here or on another replica, runs it at once. */
  async releaseLease(id: string, leaseOwner: string): Promise<void> {
    await this.db
      .updateTable('background_responses')
      .set({ lease_until: 0 })
      .where('id', '=', id)
      .where('lease_owner', '=', leaseOwner)
      .where('status', 'in', NOT_TERMINAL)
      .execute();
  }

  /** `queued` → `in_progress` by the lease holder; false when it no longer holds the run. */
  async markStarted(id: string, leaseOwner: string, now: number): Promise<boolean> {
    const result = await this.db
      .updateTable('background_responses')
      .set({ status: 'in_progress', updated_at: now })
      .where('id', '=', id)
      .where('lease_owner', '=', leaseOwner)
      .where('status', 'in', NOT_TERMINAL)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /**
   * Appends events in order, numbering them from the run's next sequence number. Events past the
   * caps get their number but are not kept (a replay skips them). False, and nothing written, when
   * this process no longer holds the run (lease lost, cancelled, finished).
   */
  async append(id: string, leaseOwner: string, events: readonly BackgroundEvent[], caps: EventCaps, now: number): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const run = await this.lockRun(trx, id);
      if (!run || !NOT_TERMINAL.includes(run.status) || run.lease_owner !== leaseOwner) return false;
      let sequence = Number(run.next_sequence);
      let count = Number(run.event_count);
      let bytes = Number(run.event_bytes);
      const rows: { response_id: string; sequence: number; type: string; data: string }[] = [];
      for (const event of events) {
        const data = eventData(event, sequence);
        if (count < caps.maxEvents && bytes + data.length <= caps.maxBytes) {
          rows.push({ response_id: id, sequence, type: event.type, data });
          count += 1;
          bytes += data.length;
        }
        sequence += 1;
      }
      if (rows.length > 0) await trx.insertInto('background_response_events').values(rows).execute();
      await trx
        .updateTable('background_responses')
        .set({ next_sequence: sequence, event_count: count, event_bytes: bytes, updated_at: now })
        .where('id', '=', id)
        .execute();
      return true;
    });
  }

  /**
   * Ends a run: its terminal status and final object, and its terminal event (always kept, caps
   * or not), in one transaction, over a status not terminal yet. With `leaseOwner` only while that
   * process holds it; without (a cancel) whoever holds it. False when it had already ended.
   */
  async finish(
    id: string,
    leaseOwner: string | undefined,
    ending: { status: string; finalObject: string; terminal: BackgroundEvent },
    now: number,
  ): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const run = await this.lockRun(trx, id);
      if (!run || !NOT_TERMINAL.includes(run.status)) return false;
      if (leaseOwner !== undefined && run.lease_owner !== leaseOwner) return false;
      const sequence = Number(run.next_sequence);
      const data = eventData(ending.terminal, sequence);
      await trx.insertInto('background_response_events').values({ response_id: id, sequence, type: ending.terminal.type, data }).execute();
      await trx
        .updateTable('background_responses')
        .set({
          status: ending.status,
          final_object: ending.finalObject,
          lease_owner: null,
          lease_until: 0,
          next_sequence: sequence + 1,
          event_count: Number(run.event_count) + 1,
          event_bytes: Number(run.event_bytes) + data.length,
          updated_at: now,
        })
        .where('id', '=', id)
        .execute();
      return true;
    });
  }

  /** Stored events after sequence number `after`, in order, at most `limit`. */
  async eventsAfter(id: string, after: number, limit: number): Promise<StoredEvent[]> {
    const rows = await this.db
      .selectFrom('background_response_events')
      .select(['sequence', 'type', 'data'])
      .where('response_id', '=', id)
      .where('sequence', '>', after)
      .orderBy('sequence')
      .limit(limit)
      .execute();
    return rows.map((row) => ({ sequence: Number(row.sequence), type: row.type, data: row.data }));
  }

  /** Deletes runs that ended before `before`, with their events; resolves how many runs went. */
  async sweepEnded(before: number, limit: number): Promise<number> {
    const ids = (
      await this.db
        .selectFrom('background_responses')
        .select('id')
        .where('status', 'not in', NOT_TERMINAL)
        .where('updated_at', '<', before)
        .limit(limit)
        .execute()
    ).map((row) => row.id);
    if (ids.length === 0) return 0;
    await this.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('background_response_events').where('response_id', 'in', ids).execute();
      await trx.deleteFrom('background_responses').where('id', 'in', ids).execute();
    });
    return ids.length;
  }

  private async lockRun(trx: Transaction<Database>, id: string) {
    const query = trx.selectFrom('background_responses').select(['status', 'lease_owner', 'next_sequence', 'event_count', 'event_bytes']).where('id', '=', id);
    return (this.dialect === 'postgres' ? query.forUpdate() : query).executeTakeFirst();
  }
}
