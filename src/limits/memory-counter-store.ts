/**
 * The counter store of one process: rates as GCRA state, counts as the reservation ids in flight
 * with their lease expiries, spend as settled nUSD plus live reservations. Everything an admit
 * checks and takes happens synchronously, so admits are atomic without locks. Memory stays
 * bounded: counters whole again, expired leases and ended periods are swept, and ended
 * reservation ids are remembered for a while (bounded) so late duplicates change nothing.
 */
import type { ActualAmounts, AdmitRequest, AdmitResult, CounterStore, Hold, HoldState } from './contract.js';
import {
  checkAdmitRequest,
  checkNusd,
  checkReservationId,
  checkTime,
  DuplicateReservation,
  ENDED_MEMORY_MS,
  RECORD_MARGIN_MS,
  type Refusal,
  rateKeptOnRelease,
  SOON_RETRY_MS,
  tightestRefusal,
} from './counter-rules.js';
import { gcraAdjust, gcraStanding, gcraTake } from './gcra.js';

interface SpendCounter {
  settled: number;
  seeded: boolean;
  expiresAt: number | null;
  reservations: Map<string, { amount: number; leaseExpiry: number }>;
}

interface Reservation {
  holds: Hold[];
  leaseExpiry: number;
}

export interface MemoryCounterStoreOptions {
  /** How many ended reservation ids to remember at most (oldest forgotten first). */
  endedIdLimit?: number;
  /** How often (in the callers' `now`) a whole sweep of idle counters runs. */
  sweepEveryMs?: number;
}

export class MemoryCounterStore implements CounterStore {
  private readonly rates = new Map<string, number>();
  private readonly counts = new Map<string, Map<string, number>>();
  private readonly spends = new Map<string, SpendCounter>();
  private readonly reservations = new Map<string, Reservation>();
  /** Ended ids → when they may be forgotten; insertion order is age order. */
  private readonly ended = new Map<string, number>();
  /**
   * Reservations whose lease ran out before they ended → their spend holds, kept until
   * `RECORD_MARGIN_MS` after the lease: a holder that was only slow still settles what it spent.
   */
  private readonly lapsed = new Map<string, { holds: Hold[]; until: number }>();
  private readonly endedIdLimit: number;
  private readonly sweepEveryMs: number;
  private lastSweep = 0;

  constructor(options: MemoryCounterStoreOptions = {}) {
    this.endedIdLimit = options.endedIdLimit ?? 100_000;
    this.sweepEveryMs = options.sweepEveryMs ?? 10_000;
  }

  async admit(request: AdmitRequest): Promise<AdmitResult> {
    checkAdmitRequest(request);
    const { reservationId, holds, now } = request;
    this.sweep(now);
    if (this.reservations.has(reservationId) || this.isEnded(reservationId, now)) throw new DuplicateReservation(reservationId);
    const leaseExpiry = now + request.leaseMs;
    const states: HoldState[] = [];
    const refusals: Refusal[] = [];
    const commits: Array<() => void> = [];
    holds.forEach((hold, index) => {
      if (hold.type === 'rate') {
        const decision = gcraTake(this.rates.get(hold.counter) ?? null, hold.limit, hold.amount, now);
        states.push(state(hold, decision.remaining, decision.resetAt));
        if (decision.allowed) commits.push(() => decision.tat > now && this.rates.set(hold.counter, decision.tat));
        else refusals.push({ index, retryAt: decision.retryAt });
      } else if (hold.type === 'count') {
        const holders = this.liveHolders(hold.counter, now);
        const used = holders?.size ?? 0;
        if (used < hold.limit) {
          states.push(state(hold, hold.limit - used - 1, 0));
          commits.push(() => {
            const map = holders ?? new Map<string, number>();
            map.set(reservationId, leaseExpiry);
            this.counts.set(hold.counter, map);
          });
        } else {
          states.push(state(hold, 0, 0));
          refusals.push({ index, retryAt: now + SOON_RETRY_MS });
        }
      } else {
        const spend = this.liveSpend(hold.counter, now);
        const used = spend ? spend.settled + reserved(spend) : 0;
        const resetAt = hold.expiresAt ?? 0;
        if (used + hold.amountNusd <= hold.limitNusd) {
          states.push(state(hold, hold.limitNusd - used - hold.amountNusd, resetAt));
          commits.push(() => {
            const counter = spend ?? { settled: 0, seeded: false, expiresAt: hold.expiresAt, reservations: new Map() };
            counter.expiresAt = hold.expiresAt;
            counter.reservations.set(reservationId, { amount: hold.amountNusd, leaseExpiry });
            this.spends.set(hold.counter, counter);
          });
        } else {
          states.push(state(hold, Math.max(0, hold.limitNusd - used), resetAt));
          refusals.push({ index, retryAt: spendRetryAt(hold, spend?.settled ?? 0, now) });
        }
      }
    });
    const refusal = tightestRefusal(refusals);
    if (refusal) {
      const result: AdmitResult = { ok: false, refused: states[refusal.index], states };
      if (refusal.retryAt !== undefined) result.retryAt = refusal.retryAt;
      return result;
    }
    for (const commit of commits) commit();
    this.reservations.set(reservationId, { holds: holds.map((hold) => ({ ...hold })), leaseExpiry });
    return { ok: true, states };
  }

  async settle(reservationId: string, actual: ActualAmounts, now: number): Promise<void> {
    this.end(reservationId, now, { settle: actual });
  }

  async release(reservationId: string, now: number): Promise<void> {
    this.end(reservationId, now, 'release');
  }

  async renew(reservationIds: readonly string[], leaseMs: number, now: number): Promise<void> {
    for (const id of reservationIds) {
      const reservation = this.liveReservation(id, now);
      if (!reservation) continue;
      reservation.leaseExpiry = now + leaseMs;
      for (const hold of reservation.holds) {
        if (hold.type === 'count') this.counts.get(hold.counter)?.set(id, reservation.leaseExpiry);
        if (hold.type === 'spend') {
          const entry = this.spends.get(hold.counter)?.reservations.get(id);
          if (entry) entry.leaseExpiry = reservation.leaseExpiry;
        }
      }
    }
  }

  async peek(holds: readonly Hold[], now: number): Promise<HoldState[]> {
    return holds.map((hold) => {
      if (hold.type === 'rate') {
        const standing = gcraStanding(this.rates.get(hold.counter) ?? null, hold.limit, now);
        return state(hold, standing.remaining, standing.resetAt);
      }
      if (hold.type === 'count') return state(hold, Math.max(0, hold.limit - (this.liveHolders(hold.counter, now)?.size ?? 0)), 0);
      const spend = this.liveSpend(hold.counter, now);
      const used = spend ? spend.settled + reserved(spend) : 0;
      return state(hold, Math.max(0, hold.limitNusd - used), hold.expiresAt ?? 0);
    });
  }

  async seedSpend(counter: string, spentNusd: number, expiresAt: number | null): Promise<boolean> {
    checkNusd(spentNusd, 'spentNusd');
    const spend = this.spends.get(counter);
    if (spend?.seeded) return false;
    this.resetSpendNow(counter, spentNusd, expiresAt);
    return true;
  }

  async resetSpend(counter: string, spentNusd: number, expiresAt: number | null): Promise<void> {
    checkNusd(spentNusd, 'spentNusd');
    this.resetSpendNow(counter, spentNusd, expiresAt);
  }

  async health(): Promise<{ ok: boolean; detail?: string }> {
    return { ok: true, detail: 'memory' };
  }

  async close(): Promise<void> {}

  /** How many counters and reservations are held (tests of bounded memory). */
  size(): { rates: number; counts: number; spends: number; reservations: number; endedIds: number } {
    return { rates: this.rates.size, counts: this.counts.size, spends: this.spends.size, reservations: this.reservations.size, endedIds: this.ended.size };
  }

  /** Ends a live reservation: a settle moves estimates to what was used, a release returns them. */
  private end(reservationId: string, now: number, how: { settle: ActualAmounts } | 'release'): void {
    checkReservationId(reservationId);
    checkTime(now, 'now');
    const reservation = this.liveReservation(reservationId, now);
    if (!reservation) {
      this.settleLapsed(reservationId, now, how);
      return;
    }
    for (const hold of reservation.holds) {
      if (hold.type === 'rate') {
        const delta =
          how === 'release' ? (rateKeptOnRelease(hold.counter) ? 0 : -hold.amount) : usedAmount(how.settle, hold.counter, hold.amount) - hold.amount;
        if (delta === 0) continue;
        const tat = gcraAdjust(this.rates.get(hold.counter) ?? null, hold.limit, delta, now);
        if (tat > now) this.rates.set(hold.counter, tat);
        else this.rates.delete(hold.counter);
      } else if (hold.type === 'count') {
        this.freeCount(hold.counter, reservationId);
      } else {
        const spend = this.spends.get(hold.counter);
        if (!spend?.reservations.delete(reservationId)) continue;
        if (how !== 'release') spend.settled += Math.round(usedAmount(how.settle, hold.counter, hold.amountNusd));
      }
    }
    this.reservations.delete(reservationId);
    this.remember(reservationId, now);
  }

  private resetSpendNow(counter: string, spentNusd: number, expiresAt: number | null): void {
    const spend = this.spends.get(counter) ?? { settled: 0, seeded: false, expiresAt, reservations: new Map() };
    spend.settled = spentNusd;
    spend.seeded = true;
    spend.expiresAt = expiresAt;
    this.spends.set(counter, spend);
  }

  private liveReservation(id: string, now: number): Reservation | undefined {
    const reservation = this.reservations.get(id);
    if (reservation && reservation.leaseExpiry <= now) {
      this.expire(id, reservation);
      this.remember(id, now);
      return undefined;
    }
    return reservation;
  }

  /**
   * A holder's lease ran out: its counts and spend reservations go; rates keep what they took.
   * Its spend holds are kept a while, for a settle from a holder that was only slow.
   */
  private expire(id: string, reservation: Reservation): void {
    for (const hold of reservation.holds) {
      if (hold.type === 'count') this.freeCount(hold.counter, id);
      if (hold.type === 'spend') this.spends.get(hold.counter)?.reservations.delete(id);
    }
    this.reservations.delete(id);
    const spendHolds = reservation.holds.filter((hold) => hold.type === 'spend');
    if (spendHolds.length === 0) return;
    this.lapsed.set(id, { holds: spendHolds, until: reservation.leaseExpiry + RECORD_MARGIN_MS });
    if (this.lapsed.size > this.endedIdLimit) {
      const oldest = this.lapsed.keys().next().value;
      if (oldest !== undefined) this.lapsed.delete(oldest);
    }
  }

  /** A settle after the lease ran out still counts what was spent (the call's usage is real); a release changes nothing. */
  private settleLapsed(id: string, now: number, how: { settle: ActualAmounts } | 'release'): void {
    const lapsed = this.lapsed.get(id);
    if (!lapsed) return;
    this.lapsed.delete(id);
    if (how === 'release' || lapsed.until <= now) return;
    for (const hold of lapsed.holds) {
      if (hold.type !== 'spend' || (hold.expiresAt !== null && hold.expiresAt <= now)) continue;
      const spend = this.spends.get(hold.counter) ?? { settled: 0, seeded: false, expiresAt: hold.expiresAt, reservations: new Map() };
      spend.settled += Math.round(usedAmount(how.settle, hold.counter, hold.amountNusd));
      this.spends.set(hold.counter, spend);
    }
  }

  private freeCount(counter: string, id: string): void {
    const holders = this.counts.get(counter);
    if (holders?.delete(id) && holders.size === 0) this.counts.delete(counter);
  }

  private liveHolders(counter: string, now: number): Map<string, number> | undefined {
    const holders = this.counts.get(counter);
    if (!holders) return undefined;
    for (const [id, leaseExpiry] of holders) if (leaseExpiry <= now) holders.delete(id);
    if (holders.size === 0) this.counts.delete(counter);
    return holders.size === 0 ? undefined : holders;
  }

  private liveSpend(counter: string, now: number): SpendCounter | undefined {
    const spend = this.spends.get(counter);
    if (!spend) return undefined;
    if (spend.expiresAt !== null && spend.expiresAt <= now) {
      this.spends.delete(counter);
      return undefined;
    }
    for (const [id, entry] of spend.reservations) if (entry.leaseExpiry <= now) spend.reservations.delete(id);
    return spend;
  }

  private isEnded(id: string, now: number): boolean {
    const until = this.ended.get(id);
    return until !== undefined && until > now;
  }

  private remember(id: string, now: number): void {
    this.ended.delete(id);
    this.ended.set(id, now + ENDED_MEMORY_MS);
    if (this.ended.size > this.endedIdLimit) {
      const oldest = this.ended.keys().next().value;
      if (oldest !== undefined) this.ended.delete(oldest);
    }
  }

  /** Drops what is whole again or over, at most every `sweepEveryMs`. */
  private sweep(now: number): void {
    if (now - this.lastSweep < this.sweepEveryMs && now >= this.lastSweep) return;
    this.lastSweep = now;
    for (const [id, reservation] of this.reservations)
      if (reservation.leaseExpiry <= now) {
        this.expire(id, reservation);
        this.remember(id, now);
      }
    for (const [id, lapsed] of this.lapsed) if (lapsed.until <= now) this.lapsed.delete(id);
    for (const [counter, tat] of this.rates) if (tat <= now) this.rates.delete(counter);
    for (const counter of [...this.counts.keys()]) this.liveHolders(counter, now);
    for (const counter of [...this.spends.keys()]) {
      const live = this.liveSpend(counter, now);
      // An unseeded counter with nothing settled nor reserved carries no information.
      if (live && !live.seeded && live.settled === 0 && live.reservations.size === 0) this.spends.delete(counter);
    }
    for (const [id, until] of this.ended) {
      if (until > now) break;
      this.ended.delete(id);
    }
  }
}

/**
 * When a full spend may fit: soon if only reservations in flight stand in the way, at the
 * period's end if settled spend alone does, never if the amount is above the cap itself or the
 * budget is for a lifetime.
 */
function spendRetryAt(hold: Extract<Hold, { type: 'spend' }>, settled: number, now: number): number | undefined {
  if (hold.amountNusd > hold.limitNusd) return undefined;
  if (settled + hold.amountNusd > hold.limitNusd) return hold.expiresAt ?? undefined;
  return now + SOON_RETRY_MS;
}

/** What a settle says a hold used; a counter not named (or named with nonsense) keeps its estimate. */
function usedAmount(actual: ActualAmounts, counter: string, estimate: number): number {
  const used = Object.hasOwn(actual, counter) ? actual[counter] : undefined;
  return typeof used === 'number' && Number.isFinite(used) && used >= 0 ? used : estimate;
}

function reserved(spend: SpendCounter): number {
  let sum = 0;
  for (const entry of spend.reservations.values()) sum += entry.amount;
  return sum;
}

function state(hold: Hold, remaining: number, resetAt: number): HoldState {
  const limit = hold.type === 'spend' ? hold.limitNusd : hold.limit;
  return { counter: hold.counter, type: hold.type, label: hold.label, limit, remaining: Math.max(0, remaining), resetAt };
}
