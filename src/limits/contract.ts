/**
 * The seam of limits and budgets (issue 26; `docs/limits.md` says what each rule means to an
 * operator). Three parts meet here:
 *
 * - the *rules* an operator sets (`LimitRule`, `BudgetRule`), kept in the store and read through
 *   a `RuleSource` that every replica refreshes on the `limits` invalidation topic;
 * - the *counters*, behind `CounterStore`: in memory for one process, in Redis (atomic Lua) when
 *   `GENGATE_REDIS_URL` is set. A call takes all its holds at admit in one atomic step (all or
 *   none), and ends them by reservation id, idempotently;
 * - the *admission* the call lifecycle runs (`LimitsService`): which rules apply to a call, the
 *   holds they make, the refusal in the surface's shape, and the numbers for the rate-limit
 *   headers of a successful answer.
 *
 * Money is nUSD (`ledger/money.ts`); times are epoch milliseconds.
 */

/** Rates over a sliding minute (GCRA): requests, tokens (input + output as the ledger counts them), task submits. */
export type RateLimitKind = 'requests_per_minute' | 'tokens_per_minute' | 'task_submits_per_minute';
/** Counts of things in flight: calls not ended, tasks not finished. */
export type CountLimitKind = 'concurrent_requests' | 'unfinished_tasks';
export type LimitKind = RateLimitKind | CountLimitKind;

export const LIMIT_KINDS: readonly LimitKind[] = [
  'requests_per_minute',
  'tokens_per_minute',
  'concurrent_requests',
  'task_submits_per_minute',
  'unfinished_tasks',
];

/**
 * Who a rule constrains. `key` and `account`: that key's or account's calls; `model`: every
 * call to models matching the rule's pattern, whoever makes it (a global cap protecting an upstream).
 */
export type LimitScope = 'key' | 'account' | 'model';

export interface LimitRule {
  /** `lim_…`, made by the store. */
  id: string;
  scope: LimitScope;
  /** The key's or account's id; '' for scope `model`. */
  subject: string;
  /**
   * A model id pattern (`*` wildcards). Required for scope `model`. On a key or account rule it
   * makes an override: for models it matches, it applies instead of that subject's rule of the
   * same kind without a pattern (the longest matching pattern wins among overrides).
   */
  model: string | null;
  kind: LimitKind;
  /** A positive integer: per minute for rates, at once for counts. */
  limit: number;
  createdAt: number;
  updatedAt: number;
}

export type BudgetPeriod = 'day' | 'week' | 'month' | 'lifetime';

export interface BudgetRule {
  /** `bud_…`, made by the store. */
  id: string;
  scope: 'key' | 'account';
  subject: string;
  /** Calendar periods (weeks start on Monday) in `timeZone`; `lifetime` never resets. */
  period: BudgetPeriod;
  /** An IANA time zone; `UTC` unless set. */
  timeZone: string;
  /** The cap, in nUSD: spend (settled plus reserved) never goes past it. */
  limitNusd: number;
  /** Past this, answers carry a warning header and the audit trail gets one entry per period; null: none. */
  softNusd: number | null;
  createdAt: number;
  updatedAt: number;
}

/** The rules in force, as every replica holds them (refreshed within a second of a change). */
export interface RuleSource {
  limits(): readonly LimitRule[];
  budgets(): readonly BudgetRule[];
  /** True when no rule of any kind exists: admission then costs nothing. */
  readonly empty: boolean;
  /** Stops following changes (at shutdown). */
  stop?(): void;
}

// ---- counters --------------------------------------------------------------------------------

/** One thing a call takes at admit, checked against its limit. */
export type Hold =
  | {
      type: 'rate';
      /** The counter's name (`counter-names.ts`), e.g. `lim:requests_per_minute:key:<id>:*`. */
      counter: string;
      /** Allowed per minute. */
      limit: number;
      /** 1 for a request or a submit; the token estimate for tokens. */
      amount: number;
      label: string;
    }
  | { type: 'count'; counter: string; limit: number; label: string }
  | {
      type: 'spend';
      counter: string;
      limitNusd: number;
      /** The most the call can cost, in nUSD. */
      amountNusd: number;
      /** When the period's counter may be dropped (the period's end plus a margin); null: never. */
      expiresAt: number | null;
      label: string;
    };

/** How one hold stands after an admit, for refusals and rate-limit headers. */
export interface HoldState {
  counter: string;
  type: Hold['type'];
  label: string;
  limit: number;
  /** What is left now (never negative). */
  remaining: number;
  /** When the counter is whole again (rates: fully replenished; spend: the period's end; counts: unknown → 0). */
  resetAt: number;
}

export type AdmitResult =
  | { ok: true; states: HoldState[] }
  | {
      ok: false;
      /** The hold that refused, the one that frees last when several do (the tightest refusal). */
      refused: HoldState;
      /** When a retry may succeed; absent when it never can (an estimate above the limit itself). */
      retryAt?: number;
      states: HoldState[];
    };

export interface AdmitRequest {
  /** Unique per call (the request id) or per task (the task id): settle and release name it. */
  reservationId: string;
  holds: Hold[];
  now: number;
  /**
   * How long count and spend holds live unless renewed: a replica that dies leaves its holds to
   * expire after this (released, not leaked). Tasks use their deadline.
   */
  leaseMs: number;
}

/** What a reservation really used, per counter: tokens for a tokens rate, nUSD for a spend. */
export type ActualAmounts = Record<string, number>;

export interface CounterStore {
  /** Takes every hold, or none and says which refused. Rates are GCRA over a minute. */
  admit(request: AdmitRequest): Promise<AdmitResult>;
  /**
   * Ends a reservation: rate and spend holds move from the estimate to `actual` (a counter not
   * named keeps its estimate), count holds are freed. Idempotent: a second settle, or a settle
   * after a release or an expiry, changes nothing.
   */
  settle(reservationId: string, actual: ActualAmounts, now: number): Promise<void>;
  /** Ends a reservation returning everything it held except the requests counted. Idempotent. */
  release(reservationId: string, now: number): Promise<void>;
  /** Extends the lease of reservations still running on this replica (a heartbeat). */
  renew(reservationIds: readonly string[], leaseMs: number, now: number): Promise<void>;
  /** Current standing of counters without taking anything (admin reads, headers). */
  peek(holds: readonly Hold[], now: number): Promise<HoldState[]>;
  /**
   * Sets a spend counter from the ledger when it does not exist yet (first use, a new replica, a
   * Redis that lost its data); returns whether it set it.
   */
  seedSpend(counter: string, spentNusd: number, expiresAt: number | null): Promise<boolean>;
  /** Overwrites a spend counter's settled part (the rebuild command). */
  resetSpend(counter: string, spentNusd: number, expiresAt: number | null): Promise<void>;
  /**
   * Runs `listener` whenever the store is back after a loss (a Redis reconnected, perhaps empty):
   * what was seeded into it must be seeded again. Absent: the store never loses its counters.
   */
  onReconnect?(listener: () => void): void;
  /** `/readyz` and logs: whether the store answers. */
  health(): Promise<{ ok: boolean; detail?: string }>;
  close(): Promise<void>;
}

/** What happens when the counter store cannot answer in time, per kind of hold. */
export interface FailurePolicy {
  /** Default `open`: the call runs uncounted (logged). */
  rates: 'open' | 'closed';
  counts: 'open' | 'closed';
  /** Default `closed`: refused with 503 `budget_unavailable`. */
  budgets: 'open' | 'closed';
}

// ---- admission, as the call lifecycle and the surfaces see it ---------------------------------

/** The numbers a surface turns into its rate-limit headers (OpenAI `x-ratelimit-*`, Anthropic `anthropic-ratelimit-*`). */
export interface RateLimitSnapshot {
  requests?: { limit: number; remaining: number; resetAt: number };
  tokens?: { limit: number; remaining: number; resetAt: number };
  /** Budgets past their soft threshold: their labels. */
  budgetWarnings?: string[];
}
