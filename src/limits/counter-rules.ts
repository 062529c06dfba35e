/**
 * The rules both counter stores share beyond GCRA (the Redis scripts repeat them in Lua): which
 * rates a release keeps, when a full count or spend may free, which refusal is reported when
 * several holds refuse, and the checks on what a caller hands a store.
 */
import type { AdmitRequest, Hold } from './contract.js';

/**
 * Rates a release does not give back: a call refused or failed upstream still made a request (and
 * a task submit was still submitted), so `requests_per_minute` and `task_submits_per_minute` stay
 * counted; every other rate (tokens) returns its estimate. Read from the counter's name
 * (`lim:<kind>:…`, `counter-names.ts`).
 */
export function rateKeptOnRelease(counter: string): boolean {
  const kind = counter.startsWith('lim:') ? counter.split(':', 2)[1] : '';
  return kind === 'requests_per_minute' || kind === 'task_submits_per_minute';
}

/**
 * A full count frees whenever some call ends, which no counter can foresee: refusals suggest a
 * retry this much later. A spend full only because of reservations in flight is treated alike.
 */
export const SOON_RETRY_MS = 1_000;

/** How long an ended reservation id is remembered so a late duplicate settle or release is a no-op. */
export const ENDED_MEMORY_MS = 600_000;
/** How long after its lease a reservation's record lives (a settle racing the lease still finds it). */
export const RECORD_MARGIN_MS = 60_000;
/** How long a rate counter outlives the moment it is whole again. */
export const RATE_KEEP_MS = 120_000;

export interface Refusal {
  index: number;
  retryAt?: number;
}

/** The refusal that frees last: one that never frees wins, else the latest `retryAt`. */
export function tightestRefusal(refusals: readonly Refusal[]): Refusal | undefined {
  let worst: Refusal | undefined;
  for (const refusal of refusals) {
    if (!worst) worst = refusal;
    else if (worst.retryAt === undefined) continue;
    else if (refusal.retryAt === undefined || refusal.retryAt > worst.retryAt) worst = refusal;
  }
  return worst;
}

const MAX_HOLDS = 64;
const MAX_ID_LENGTH = 256;

/** Throws a `RangeError` naming what is wrong; the stores call it before touching any counter. */
export function checkAdmitRequest(request: AdmitRequest): void {
  checkReservationId(request.reservationId);
  checkTime(request.now, 'now');
  if (!(Number.isFinite(request.leaseMs) && request.leaseMs > 0)) throw new RangeError('leaseMs must be a positive number');
  if (!Array.isArray(request.holds) || request.holds.length > MAX_HOLDS) throw new RangeError(`holds must be a list of at most ${MAX_HOLDS}`);
  const seen = new Set<string>();
  for (const hold of request.holds) {
    checkHold(hold);
    if (seen.has(hold.counter)) throw new RangeError(`counter ${hold.counter} is held twice in one admit`);
    seen.add(hold.counter);
  }
}

export function checkReservationId(id: string): void {
  if (typeof id !== 'string' || id.length === 0 || id.length > MAX_ID_LENGTH) throw new RangeError(`reservationId must be 1 to ${MAX_ID_LENGTH} characters`);
}

export function checkTime(value: number, name: string): void {
  if (!Number.isFinite(value) || value < 0) throw new RangeError(`${name} must be a non-negative number`);
}

export function checkNusd(value: number, name: string): void {
  if (!Number.isSafeInteger(value) || value < 0) throw new RangeError(`${name} must be a non-negative integer of nUSD`);
}

function checkHold(hold: Hold): void {
  if (typeof hold.counter !== 'string' || hold.counter.length === 0 || hold.counter.length > 512)
    throw new RangeError('a hold needs a counter name of 1 to 512 characters');
  if (hold.type === 'rate') {
    if (!(Number.isSafeInteger(hold.limit) && hold.limit > 0)) throw new RangeError(`rate ${hold.counter}: limit must be a positive integer`);
    if (!(Number.isFinite(hold.amount) && hold.amount >= 0)) throw new RangeError(`rate ${hold.counter}: amount must be a non-negative number`);
  } else if (hold.type === 'count') {
    if (!(Number.isSafeInteger(hold.limit) && hold.limit > 0)) throw new RangeError(`count ${hold.counter}: limit must be a positive integer`);
  } else if (hold.type === 'spend') {
    checkNusd(hold.limitNusd, `spend ${hold.counter}: limitNusd`);
    checkNusd(hold.amountNusd, `spend ${hold.counter}: amountNusd`);
    if (hold.expiresAt !== null) checkTime(hold.expiresAt, `spend ${hold.counter}: expiresAt`);
  } else {
    throw new RangeError(`unknown hold type ${(hold as { type: unknown }).type}`);
  }
}

/** Rejects the admit of a reservation id that is live or recently ended. */
export class DuplicateReservation extends Error {
  constructor(readonly reservationId: string) {
    super(`reservation ${reservationId} already exists`);
    this.name = 'DuplicateReservation';
  }
}
