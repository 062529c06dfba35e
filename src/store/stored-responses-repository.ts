/**
 * The Responses API's stored responses (table `stored_responses`): written whole by id, read by
 * their owner only (an account id, or `key:<id>` for a key without an account), never once
 * expired. A conversation is walked up its `previous_response_id` links in one recursive query
 * that reads only ids and sizes, so its bounds are checked before any item is read; expired rows
 * are deleted in bounded batches by the retention sweep. Each save also indexes its items' ids
 * (table `stored_response_items`, the owner's id → the response that last stored it), so that an
 * `item_reference` finds an item of any earlier response; the index rows go with their response.
 * Every write and delete also moves the owner's totals (table `stored_response_totals`) in the
 * same transaction, which the per-account cap reads. A response is rewritten only by the one
 * runner that owns it, so reading its old size before the rewrite does not race.
 */
import { type Kysely, type Transaction, sql } from 'kysely';
import type { ResponseItem, StoredResponse, StoredResponseStatus } from '../core/responses.js';
import type { Database } from './schema.js';

/** One link of a conversation's chain, newest first: no items, only what its bounds need. */
export interface ChainLink {
  id: string;
  previousResponseId: string | null;
  itemCount: number;
  bytes: number;
}

/** A stored response as the admin API lists it: no items. */
export interface StoredResponseSummary {
  id: string;
  accountId: string | null;
  keyId: string;
  model: string;
  status: string;
  previousResponseId: string | null;
  itemCount: number;
  bytes: number;
  createdAt: number;
  expiresAt: number;
}

/** Ids per query when a conversation's items are read (well under either database's parameter limit). */
const IDS_PER_QUERY = 200;
/** Item-index rows per insert (three parameters each). */
const INDEX_ROWS_PER_INSERT = 500;

/** Where a stored item of an id is: the owner's live response that last stored it, and that response's size. */
export interface StoredItemLocation {
  itemId: string;
  responseId: string;
  bytes: number;
}

type Row = Database['stored_responses'];

function parseItems(text: string): ResponseItem[] {
  return JSON.parse(text) as ResponseItem[];
}

function fromRow(row: Row): StoredResponse {
  const response: StoredResponse = {
    id: row.id,
    accountId: row.owner,
    model: row.model,
    createdAt: Math.floor(Number(row.created_at) / 1000),
    status: row.status as StoredResponseStatus,
    inputItems: parseItems(row.input_items),
    outputItems: parseItems(row.output_items),
    object: JSON.parse(row.object) as Record<string, unknown>,
    expiresAt: Math.floor(Number(row.expires_at) / 1000),
  };
  if (row.previous_response_id !== null) response.previousResponseId = row.previous_response_id;
  return response;
}

/** The ids of a response's items, once each (a reference is stored as the item it names, so never a reference's). */
function indexedItemIds(response: StoredResponse): string[] {
  const ids = new Set<string>();
  for (const item of [...response.inputItems, ...response.outputItems]) {
    if (typeof item.id === 'string' && item.type !== 'item_reference') ids.add(item.id);
  }
  return [...ids];
}

/** Moves an owner's totals by the given amounts (negative when responses went). */
async function addToTotals(trx: Transaction<Database>, owner: string, bytes: number, responses: number): Promise<void> {
  if (bytes === 0 && responses === 0) return;
  await trx
    .insertInto('stored_response_totals')
    .values({ owner, bytes, responses })
    .onConflict((conflict) =>
      conflict.column('owner').doUpdateSet({
        bytes: sql`stored_response_totals.bytes + excluded.bytes`,
        responses: sql`stored_response_totals.responses + excluded.responses`,
      }),
    )
    .execute();
}

/** What the deleted rows took from each owner. */
async function subtractDeleted(trx: Transaction<Database>, deleted: ReadonlyArray<{ owner: string; bytes: number | string }>): Promise<void> {
  const byOwner = new Map<string, { bytes: number; responses: number }>();
  for (const row of deleted) {
    const total = byOwner.get(row.owner) ?? { bytes: 0, responses: 0 };
    total.bytes += Number(row.bytes);
    total.responses += 1;
    byOwner.set(row.owner, total);
  }
  for (const [owner, total] of byOwner) await addToTotals(trx, owner, -total.bytes, -total.responses);
}

async function deleteItemIndex(trx: Transaction<Database>, responseIds: readonly string[]): Promise<void> {
  await trx.deleteFrom('stored_response_items').where('response_id', 'in', responseIds).execute();
}

function summaryOf(row: Omit<Row, 'input_items' | 'output_items' | 'object' | 'owner'>): StoredResponseSummary {
  return {
    id: row.id,
    accountId: row.account_id,
    keyId: row.key_id,
    model: row.model,
    status: row.status,
    previousResponseId: row.previous_response_id,
    itemCount: Number(row.item_count),
    bytes: Number(row.bytes),
    createdAt: Number(row.created_at),
    expiresAt: Number(row.expires_at),
  };
}

/**
 * `createdAt` is whole seconds; the row keeps milliseconds so that listings order the responses
 * of one second as they were saved: the time of saving, held within that second.
 */
function createdAtMs(createdAt: number): number {
  const start = createdAt * 1000;
  return Math.min(Math.max(Date.now(), start), start + 999);
}

export class StoredResponsesRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /**
   * Writes (or rewrites, by id) a response and indexes its items' ids, in one transaction;
   * resolves once the database committed it, with the bytes the owner keeps more (0 when the id is another owner's).
   */
  async save(owner: { owner: string; accountId: string | null; keyId: string }, response: StoredResponse): Promise<number> {
    const input = JSON.stringify(response.inputItems);
    const output = JSON.stringify(response.outputItems);
    const object = JSON.stringify(response.object);
    const values = {
      owner: owner.owner,
      account_id: owner.accountId,
      key_id: owner.keyId,
      model: response.model,
      status: response.status,
      previous_response_id: response.previousResponseId ?? null,
      input_items: input,
      output_items: output,
      object,
      item_count: response.inputItems.length + response.outputItems.length,
      bytes: input.length + output.length + object.length,
      created_at: createdAtMs(response.createdAt),
      expires_at: response.expiresAt * 1000,
    };
    const itemIds = indexedItemIds(response);
    return this.db.transaction().execute(async (trx) => {
      const previous = await trx
        .selectFrom('stored_responses')
        .select('bytes')
        .where('id', '=', response.id)
        .where('owner', '=', owner.owner)
        .executeTakeFirst();
      const written = await trx
        .insertInto('stored_responses')
        .values({ id: response.id, ...values })
        // A rewrite never moves a response to another owner.
        .onConflict((conflict) => conflict.column('id').doUpdateSet(values).where('stored_responses.owner', '=', owner.owner))
        .executeTakeFirst();
      if (Number(written.numInsertedOrUpdatedRows ?? 0) === 0) return 0;
      const grown = values.bytes - Number(previous?.bytes ?? 0);
      await addToTotals(trx, owner.owner, grown, previous ? 0 : 1);
      for (let start = 0; start < itemIds.length; start += INDEX_ROWS_PER_INSERT) {
        const rows = itemIds.slice(start, start + INDEX_ROWS_PER_INSERT).map((itemId) => ({ owner: owner.owner, item_id: itemId, response_id: response.id }));
        // An id stored again (a referenced item) now points at the newer response: the one kept longest.
        await trx
          .insertInto('stored_response_items')
          .values(rows)
          .onConflict((conflict) => conflict.columns(['owner', 'item_id']).doUpdateSet((eb) => ({ response_id: eb.ref('excluded.response_id') })))
          .execute();
      }
      return grown;
    });
  }

  /** What the owner keeps: bytes and responses, expired ones included until the sweep deletes them. */
  async totals(owner: string): Promise<{ bytes: number; responses: number }> {
    const row = await this.db.selectFrom('stored_response_totals').select(['bytes', 'responses']).where('owner', '=', owner).executeTakeFirst();
    return { bytes: Number(row?.bytes ?? 0), responses: Number(row?.responses ?? 0) };
  }

  /** The owner's response, unless it expired at or before `now` (Unix ms). */
  async find(owner: string, id: string, now: number): Promise<StoredResponse | undefined> {
    const row = await this.db
      .selectFrom('stored_responses')
      .selectAll()
      .where('id', '=', id)
      .where('owner', '=', owner)
      .where('expires_at', '>', now)
      .executeTakeFirst();
    return row ? fromRow(row) : undefined;
  }

  /**
   * The chain that ends at `id`, newest first, at most `maxLinks` long: the owner's live responses
   * linked by `previous_response_id`. Empty when `id` itself is unknown; a chain whose last link
   * still names a previous response was either cut by `maxLinks` or reached one deleted or expired.
   */
  async chain(owner: string, id: string, now: number, maxLinks: number): Promise<ChainLink[]> {
    const result = await sql<{ id: string; previous_response_id: string | null; item_count: number | string; bytes: number | string; depth: number }>`
      with recursive chain (id, previous_response_id, item_count, bytes, depth) as (
        select id, previous_response_id, item_count, bytes, 1 from stored_responses
          where id = ${id} and owner = ${owner} and expires_at > ${now}
        union all
        select r.id, r.previous_response_id, r.item_count, r.bytes, chain.depth + 1 from stored_responses r
          join chain on r.id = chain.previous_response_id
          where r.owner = ${owner} and r.expires_at > ${now} and chain.depth < ${maxLinks}
      )
      select id, previous_response_id, item_count, bytes, depth from chain order by depth
    `.execute(this.db);
    return result.rows.map((row) => ({
      id: row.id,
      previousResponseId: row.previous_response_id,
      itemCount: Number(row.item_count),
      bytes: Number(row.bytes),
    }));
  }

  /**
   * Where the owner's items of these ids are: in live responses only; ids never stored, or whose
   * response was deleted or expired, are absent. The caller bounds `itemIds`.
   */
  async locateItems(owner: string, itemIds: readonly string[], now: number): Promise<StoredItemLocation[]> {
    const found: StoredItemLocation[] = [];
    for (let start = 0; start < itemIds.length; start += IDS_PER_QUERY) {
      const rows = await this.db
        .selectFrom('stored_response_items as i')
        .innerJoin('stored_responses as r', 'r.id', 'i.response_id')
        .select(['i.item_id', 'i.response_id', 'r.bytes'])
        .where('i.owner', '=', owner)
        .where('i.item_id', 'in', itemIds.slice(start, start + IDS_PER_QUERY))
        .where('r.owner', '=', owner)
        .where('r.expires_at', '>', now)
        .execute();
      for (const row of rows) found.push({ itemId: row.item_id, responseId: row.response_id, bytes: Number(row.bytes) });
    }
    return found;
  }

  /** The input and output items of the given responses, by id (rows gone meanwhile are absent). */
  async itemsOf(ids: readonly string[]): Promise<Map<string, { inputItems: ResponseItem[]; outputItems: ResponseItem[] }>> {
    const items = new Map<string, { inputItems: ResponseItem[]; outputItems: ResponseItem[] }>();
    for (let start = 0; start < ids.length; start += IDS_PER_QUERY) {
      const rows = await this.db
        .selectFrom('stored_responses')
        .select(['id', 'input_items', 'output_items'])
        .where('id', 'in', ids.slice(start, start + IDS_PER_QUERY))
        .execute();
      for (const row of rows) items.set(row.id, { inputItems: parseItems(row.input_items), outputItems: parseItems(row.output_items) });
    }
    return items;
  }

  /** Deletes the owner's response; false when there was none (or it had expired). */
  async remove(owner: string, id: string, now: number): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const deleted = await trx
        .deleteFrom('stored_responses')
        .where('id', '=', id)
        .where('owner', '=', owner)
        .where('expires_at', '>', now)
        .returning(['owner', 'bytes'])
        .execute();
      if (deleted.length === 0) return false;
      await deleteItemIndex(trx, [id]);
      await subtractDeleted(trx, deleted);
      return true;
    });
  }

  /** Deletes at most `limit` responses expired at or before `now`; returns how many. */
  async deleteExpired(now: number, limit: number): Promise<number> {
    return this.db.transaction().execute(async (trx) => {
      const expired = (await trx.selectFrom('stored_responses').select('id').where('expires_at', '<=', now).limit(limit).execute()).map((row) => row.id);
      if (expired.length === 0) return 0;
      let deleted = 0;
      for (let start = 0; start < expired.length; start += IDS_PER_QUERY) {
        const ids = expired.slice(start, start + IDS_PER_QUERY);
        await deleteItemIndex(trx, ids);
        const rows = await trx.deleteFrom('stored_responses').where('id', 'in', ids).where('expires_at', '<=', now).returning(['owner', 'bytes']).execute();
        await subtractDeleted(trx, rows);
        deleted += rows.length;
      }
      return deleted;
    });
  }

  /** Live responses newest first, one account's when `accountId` is given, older than `before` (`[created_at, id]`). */
  async list(filter: { accountId?: string; before?: [number, string] }, now: number, limit: number): Promise<StoredResponseSummary[]> {
    let query = this.db
      .selectFrom('stored_responses')
      .select(['id', 'account_id', 'key_id', 'model', 'status', 'previous_response_id', 'item_count', 'bytes', 'created_at', 'expires_at'])
      .where('expires_at', '>', now)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit);
    if (filter.accountId !== undefined) query = query.where('account_id', '=', filter.accountId);
    if (filter.before) {
      const [createdAt, id] = filter.before;
      query = query.where((eb) => eb.or([eb('created_at', '<', createdAt), eb.and([eb('created_at', '=', createdAt), eb('id', '<', id)])]));
    }
    return (await query.execute()).map(summaryOf);
  }

  /** Deletes a response whatever its owner, or only if it is `accountId`'s; false when there was none. */
  async removeAny(id: string, now: number, accountId?: string): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      let query = trx.deleteFrom('stored_responses').where('id', '=', id).where('expires_at', '>', now);
      if (accountId !== undefined) query = query.where('account_id', '=', accountId);
      const deleted = await query.returning(['owner', 'bytes']).execute();
      if (deleted.length === 0) return false;
      await deleteItemIndex(trx, [id]);
      await subtractDeleted(trx, deleted);
      return true;
    });
  }
}
