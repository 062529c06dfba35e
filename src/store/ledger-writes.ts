/**
 * The SQL of the ledger: entries of `task_ledger` (one per reservation id and kind) and usage
 * rows, inside the transaction of the change they belong to. What to write, how much and whether
 * at all is the ledger's to decide (`src/ledger/reservations.ts`); the store runs it in its
 * transaction as a `LedgerMove`.
 */
import type { Kysely, Transaction } from 'kysely';
import type { Database, TaskLedgerTable } from './schema.js';
import { insertUsageRows, type UsageRow, type UsageTarget } from './usage-repository.js';

/** One ledger entry; `task_id` is the reservation's id (a task's id: one reservation a task). */
export type LedgerEntry = Pick<TaskLedgerTable, 'task_id' | 'owner' | 'kind' | 'amount_nusd' | 'created_at'>;

export interface LedgerWrites {
  /** The entries of one reservation, oldest first. */
  entries(reservationId: string): Promise<LedgerEntry[]>;
  /** Adds an entry; one of the same reservation and kind already there is kept instead. */
  addEntry(entry: LedgerEntry): Promise<void>;
  /** Adds a usage row and its rollups; a request id already stored is skipped. */
  addUsage(row: UsageRow): Promise<void>;
}

/** A money movement of the ledger, run by the store inside its transaction. */
export type LedgerMove = (writes: LedgerWrites) => Promise<unknown>;

/** `target`: the store (its dialect, and on SQLite its raw handle: usage rows go by prepared statements). */
export function ledgerWrites(trx: Transaction<Database>, target: UsageTarget): LedgerWrites {
  return {
    entries: (reservationId) => ledgerEntries(trx, reservationId),
    addEntry: async (entry) => {
      await trx
        .insertInto('task_ledger')
        .values(entry)
        .onConflict((conflict) => conflict.columns(['task_id', 'kind']).doNothing())
        .execute();
    },
    addUsage: (row) => insertUsageRows(trx, [row], target),
  };
}

export function ledgerEntries(db: Kysely<Database>, reservationId: string): Promise<LedgerEntry[]> {
  return db
    .selectFrom('task_ledger')
    .select(['task_id', 'owner', 'kind', 'amount_nusd', 'created_at'])
    .where('task_id', '=', reservationId)
    .orderBy('id')
    .execute();
}
