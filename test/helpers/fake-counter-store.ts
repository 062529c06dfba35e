/**
 * A small, exact in-memory `CounterStore` for tests of admission: rates as a sliding log of the
 * last minute (not GCRA), counts and spend reservations with leases, settle / release / renew
 * by reservation id, idempotent. Plus a static `RuleSource` whose rules a test can change.
 */
import type { ActualAmounts, AdmitRequest, AdmitResult, BudgetRule, CounterStore, Hold, HoldState, LimitRule, RuleSource } from '../../src/limits/contract.js';

interface RateEvent {
  at: number;
  amount: number;
  reservationId: string;
}

interface Reservation {
  holds: Hold[];
  leaseUntil: number;
}

export class FakeCounterStore implements CounterStore {
  private readonly rates = new Map<string, RateEvent[]>();
  private readonly settledSpend = new Map<string, number>();
  private readonly reservations = new Map<string, Reservation>();
  /** Every admit, for assertions on holds and amounts. */
  readonly admits: AdmitRequest[] = [];
  /** When set, every call throws it (a store that cannot answer). */
  failWith?: Error;
  /** The rate window: a minute, as the contract says, unless a test shortens it. */
  private readonly windowMs: number;

  constructor(options: { windowMs?: number } = {}) {
    this.windowMs = options.windowMs ?? 60_000;
  }

  async admit(request: AdmitRequest): Promise<AdmitResult> {
    this.check();
    this.admits.push(request);
    const { now } = request;
    const refusals: Array<{ state: HoldState; retryAt?: number }> = [];
    for (const hold of request.holds) {
      const refusal = this.refusalOf(hold, now);
      if (refusal) refusals.push(refusal);
    }
    if (refusals.length > 0) {
      // The refusal that frees last (never: last of all).
      refusals.sort((a, b) => (a.retryAt ?? Number.POSITIVE_INFINITY) - (b.retryAt ?? Number.POSITIVE_INFINITY));
      const worst = refusals[refusals.length - 1];
      return {
        ok: false,
        refused: worst.state,
        ...(worst.retryAt === undefined ? {} : { retryAt: worst.retryAt }),
        states: request.holds.map((hold) => this.stateOf(hold, now)),
      };
    }
    for (const hold of request.holds) {
      if (hold.type === 'rate') this.events(hold.counter, now).push({ at: now, amount: hold.amount, reservationId: request.reservationId });
    }
    this.reservations.set(request.reservationId, { holds: request.holds, leaseUntil: now + request.leaseMs });
    return { ok: true, states: request.holds.map((hold) => this.stateOf(hold, now)) };
  }

  async settle(reservationId: string, actual: ActualAmounts, now: number): Promise<void> {
    this.check();
    const reservation = this.reservations.get(reservationId);
    if (!reservation) return;
    this.reservations.delete(reservationId);
    if (reservation.leaseUntil < now) return;
    for (const hold of reservation.holds) {
      const real = actual[hold.counter];
      if (hold.type === 'rate' && real !== undefined) {
        for (const event of this.events(hold.counter, now)) if (event.reservationId === reservationId) event.amount = real;
      }
      if (hold.type === 'spend') this.settledSpend.set(hold.counter, (this.settledSpend.get(hold.counter) ?? 0) + (real ?? hold.amountNusd));
    }
  }

  async release(reservationId: string, now: number): Promise<void> {
    this.check();
    const reservation = this.reservations.get(reservationId);
    if (!reservation) return;
    this.reservations.delete(reservationId);
    for (const hold of reservation.holds) {
      if (hold.type !== 'rate' || isRequestCounter(hold.counter)) continue;
      const events = this.events(hold.counter, now);
      this.rates.set(
        hold.counter,
        events.filter((event) => event.reservationId !== reservationId),
      );
    }
  }

  async renew(reservationIds: readonly string[], leaseMs: number, now: number): Promise<void> {
    this.check();
    for (const id of reservationIds) {
      const reservation = this.reservations.get(id);
      if (reservation && reservation.leaseUntil >= now) reservation.leaseUntil = now + leaseMs;
    }
  }

  async peek(holds: readonly Hold[], now: number): Promise<HoldState[]> {
    return holds.map((hold) => this.stateOf(hold, now));
  }

  async seedSpend(counter: string, spentNusd: number): Promise<boolean> {
    this.check();
    if (this.settledSpend.has(counter)) return false;
    this.settledSpend.set(counter, spentNusd);
    return true;
  }

  async resetSpend(counter: string, spentNusd: number): Promise<void> {
    this.settledSpend.set(counter, spentNusd);
  }

  async health(): Promise<{ ok: boolean }> {
    return { ok: this.failWith === undefined };
  }

  async close(): Promise<void> {}

  /** Settled spend of a counter (nUSD). */
  spent(counter: string): number {
    return this.settledSpend.get(counter) ?? 0;
  }

  /** Reservations not ended yet (live or expired). */
  get openReservations(): string[] {
    return [...this.reservations.keys()];
  }

  private check(): void {
    if (this.failWith) throw this.failWith;
  }

  private events(counter: string, now: number): RateEvent[] {
    const live = (this.rates.get(counter) ?? []).filter((event) => event.at > now - this.windowMs);
    this.rates.set(counter, live);
    return live;
  }

  private used(hold: Hold, now: number): number {
    if (hold.type === 'rate') return this.events(hold.counter, now).reduce((sum, event) => sum + event.amount, 0);
    let used = hold.type === 'spend' ? (this.settledSpend.get(hold.counter) ?? 0) : 0;
    for (const reservation of this.reservations.values()) {
      if (reservation.leaseUntil < now) continue;
      for (const held of reservation.holds) {
        if (held.counter !== hold.counter) continue;
        used += held.type === 'spend' ? held.amountNusd : held.type === 'count' ? 1 : 0;
      }
    }
    return used;
  }

  private stateOf(hold: Hold, now: number): HoldState {
    const limit = hold.type === 'spend' ? hold.limitNusd : hold.limit;
    const remaining = Math.max(0, limit - this.used(hold, now));
    let resetAt = 0;
    if (hold.type === 'rate') {
      const events = this.events(hold.counter, now);
      resetAt = events.length === 0 ? now : events[events.length - 1].at + this.windowMs;
    } else if (hold.type === 'spend') resetAt = hold.expiresAt ?? 0;
    return { counter: hold.counter, type: hold.type, label: hold.label, limit, remaining, resetAt };
  }

  private refusalOf(hold: Hold, now: number): { state: HoldState; retryAt?: number } | undefined {
    const state = this.stateOf(hold, now);
    if (hold.type === 'count') return state.remaining >= 1 ? undefined : { state };
    if (hold.type === 'spend') return hold.amountNusd <= state.remaining ? undefined : { state, retryAt: hold.expiresAt === null ? undefined : state.resetAt };
    if (hold.amount <= state.remaining) return undefined;
    if (hold.amount > hold.limit) return { state };
    // The moment enough of the minute's events have left the window.
    let freed = state.remaining;
    for (const event of this.events(hold.counter, now)) {
      freed += event.amount;
      if (freed >= hold.amount) return { state, retryAt: event.at + this.windowMs };
    }
    return { state };
  }
}

function isRequestCounter(counter: string): boolean {
  return counter.includes('requests_per_minute') || counter.includes('task_submits_per_minute');
}

/** Rules a test sets; `set` hands out new arrays, as a refreshed source does. */
export class StaticRuleSource implements RuleSource {
  private limitRules: readonly LimitRule[] = [];
  private budgetRules: readonly BudgetRule[] = [];

  constructor(
    rules: {
      limits?: Array<Partial<LimitRule> & Pick<LimitRule, 'scope' | 'kind' | 'limit'>>;
      budgets?: Array<Partial<BudgetRule> & Pick<BudgetRule, 'scope' | 'subject' | 'limitNusd'>>;
    } = {},
  ) {
    this.set(rules);
  }

  set(rules: {
    limits?: Array<Partial<LimitRule> & Pick<LimitRule, 'scope' | 'kind' | 'limit'>>;
    budgets?: Array<Partial<BudgetRule> & Pick<BudgetRule, 'scope' | 'subject' | 'limitNusd'>>;
  }): void {
    this.limitRules = (rules.limits ?? []).map((rule, i) => ({ id: `lim_${i}`, subject: '', model: null, createdAt: 0, updatedAt: 0, ...rule }));
    this.budgetRules = (rules.budgets ?? []).map((rule, i) => ({
      id: `bud_${i}`,
      period: 'month',
      timeZone: 'UTC',
      softNusd: null,
      createdAt: 0,
      updatedAt: 0,
      ...rule,
    }));
  }

  limits(): readonly LimitRule[] {
    return this.limitRules;
  }

  budgets(): readonly BudgetRule[] {
    return this.budgetRules;
  }

  get empty(): boolean {
    return this.limitRules.length === 0 && this.budgetRules.length === 0;
  }
}
