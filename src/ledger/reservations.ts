/**
 * Money held for work not yet done — a task's price today — moves reserve → settle or release,
 * by the reservation's id. Settle and release are idempotent: a second settle or release of the
 * same reservation, or one after the other, writes nothing. Each move runs inside the store's
 * transaction of the change it belongs to (`LedgerMove`), so a task's terminal status, its money
 * and its usage row are written together or not at all. The ledger decides the amounts, all
 * whole nUSD (`core/money.ts`): a settlement never charges more than was reserved, and a release
 * returns all of it.
 */
import type { LedgerEntry, LedgerMove, LedgerWrites } from '../store/ledger-writes.js';
import { type UsageFacts, usageRow } from './usage-row.js';

interface Reservation {
  /** Unique per reservation (a task's id). */
  id: string;
  /** The key the money is held for. */
  owner: string;
  /** nUSD (`core/money.ts`). */
  amountNusd: number;
  at: number;
}

/** How a reservation ends: when, and the facts of its usage row (the ledger prices it: the amount settled, or nothing). */
export interface ReservationEnd {
  at: number;
  usage: Omit<UsageFacts, 'costNusd'>;
}

type ReservationState = 'none' | 'reserved' | 'settled' | 'released';

export function reserve(reservation: Reservation): LedgerMove {
  const { id, owner, amountNusd, at } = reservation;
  if (!Number.isSafeInteger(amountNusd) || amountNusd < 0) throw new RangeError(`a reservation is a whole number of nUSD ≥ 0, got ${amountNusd}`);
  return (writes) => writes.addEntry({ task_id: id, owner, kind: 'reserve', amount_nusd: amountNusd, created_at: at });
}

/** Charges `amountNusd`, at most what was reserved. Resolves false, writing nothing, when the reservation had ended. */
export function settle(id: string, amountNusd: number, end: ReservationEnd): LedgerMove {
  if (!Number.isSafeInteger(amountNusd) || amountNusd < 0) throw new RangeError(`a settlement is a whole number of nUSD ≥ 0, got ${amountNusd}`);
  return (writes) => close(writes, id, 'settle', (reserved) => Math.min(amountNusd, reserved), end);
}

/** Returns all that was reserved (a `refund` entry). Resolves false, writing nothing, when the reservation had ended. */
export function release(id: string, end: ReservationEnd): LedgerMove {
  return (writes) => close(writes, id, 'refund', (reserved) => reserved, end);
}

function reservationState(entries: readonly Pick<LedgerEntry, 'kind'>[]): ReservationState {
  if (entries.some((entry) => entry.kind === 'settle')) return 'settled';
  if (entries.some((entry) => entry.kind === 'refund')) return 'released';
  return entries.some((entry) => entry.kind === 'reserve') ? 'reserved' : 'none';
}

async function close(
  writes: LedgerWrites,
  id: string,
  kind: 'settle' | 'refund',
  amountOf: (reserved: number) => number,
  end: ReservationEnd,
): Promise<boolean> {
  const entries = await writes.entries(id);
  const state = reservationState(entries);
  if (state === 'none') throw new Error(`no reservation ${id} to ${kind === 'settle' ? 'settle' : 'release'}`);
  if (state !== 'reserved') return false;
  const reserved = entries.find((entry) => entry.kind === 'reserve') as LedgerEntry;
  const amount = amountOf(Number(reserved.amount_nusd));
  await writes.addEntry({ task_id: id, owner: reserved.owner, kind, amount_nusd: amount, created_at: end.at });
  await writes.addUsage(usageRow({ ...end.usage, costNusd: kind === 'settle' ? amount : 0 }));
  return true;
}
