/**
 * Admission of limits and budgets (`docs/limits.md`): for one call or task submit, the rules that
 * apply become holds — a request, a token estimate, a concurrency slot, a budget reservation —
 * taken all at once from the counter store; a refusal is thrown as a GatewayError in the
 * gateway's vocabulary (`rate_limit`, `insufficient_quota`, `budget_unavailable`) naming the
 * limit. The end of a call settles its holds to what it really used (tokens, nUSD) or releases
 * them when no upstream answered; a task's holds live until the task is terminal. The numbers
 * for rate-limit headers are left, per request id, for the HTTP layer to write
 * (`takeSnapshot`). With no rule anywhere, `admit` returns at once and allocates nothing.
 */
import { GatewayError } from '../core/errors.js';
import { loadTokenizer } from '../core/tokenizer.js';
import type { Usage } from '../core/usage.js';
import { costOfCall } from '../ledger/pricing.js';
import type { IntegerPrice } from '../routing/integer-price.js';
import { RuleIndex } from './applicable-rules.js';
import { periodBounds } from './budget-period.js';
import type { BudgetRule, CounterStore, Hold, HoldState, LimitKind, LimitRule, RateLimitSnapshot, RuleSource } from './contract.js';
import { budgetCounter, limitCounter } from './counter-names.js';
import { budgetLabel, budgetName, limitLabel } from './limit-labels.js';

type Price = IntegerPrice;

const DAY_MS = 86_400_000;
/** After a failed read of the ledger, how long a budget counter waits before it is read again. */
const SEED_RETRY_MS = 30_000;
/** How often a seeded budget counter is seeded again (a no-op unless its Redis lost it). */
const RESEED_EVERY_MS = 60_000;
/** Most snapshots waiting for their answer's headers; past it the oldest go (an answer never sent). */
const MAX_PENDING_SNAPSHOTS = 10_000;

const CALL_KINDS: ReadonlySet<LimitKind> = new Set(['requests_per_minute', 'tokens_per_minute', 'concurrent_requests']);
const TASK_KINDS: ReadonlySet<LimitKind> = new Set(['requests_per_minute', 'task_submits_per_minute', 'unfinished_tasks']);

/** What admission may read to size a call; each is read only when a tokens or budget rule applies. */
export interface CallEstimate {
  /** Input tokens counted locally (called with the tokenizer loaded; may throw: counted as 0). */
  inputTokens?(): number;
  /** The request's own output cap, if it sets one. */
  outputCap?(): number | undefined;
  /** Priced units the call produces at most (images). */
  units?: number;
}

export interface AdmissionRequest {
  /** The HTTP request's id: the rate-limit headers of its answer are kept under it. */
  requestId: string;
  keyId: string;
  accountId: string | null;
  model: string;
  estimate?: CallEstimate;
  /** A task submit: the reservation is the task's (id, lease until its deadline, its price). */
  task?: { id: string; amountNusd: number; leaseMs: number };
}

/** What an admitted call holds, for its end. */
export interface Admission {
  reservationId: string;
  /** Counters settled with the call's real tokens. */
  tokenCounters: string[];
  /** Counters settled with the call's real cost. */
  spendCounters: string[];
}

export interface CallEnd {
  usage?: Usage;
  costNusd: number;
  /** True when the call failed before any upstream answered: everything it held is returned. */
  release: boolean;
}

export interface LimitsSettings {
  /** Output tokens assumed for a request that sets no cap (`admission.outputTokenEstimate`). */
  outputTokenEstimate: number;
  /** Lease of count and spend holds; renewed every third of it while the call runs. */
  leaseMs: number;
  /** `admission.allowUnpriced`: a key under a budget may call a model without a price (absent: no). */
  allowUnpriced?: boolean;
}

export interface LimitsDeps {
  rules: RuleSource;
  counters: CounterStore;
  settings: LimitsSettings;
  /** The catalog price of a public model id (budgets reserve the most a call can cost). */
  priceOf(model: string): Price | undefined;
  /** The ledger's spend of a budget's subject between two instants, in nUSD (a DB read, once per counter per process). */
  spentInPeriod?(rule: BudgetRule, start: number, end: number | null): Promise<number>;
  /** A budget passed its soft threshold (called once per budget and period per process). */
  onSoftThreshold?(rule: BudgetRule, label: string, spentNusd: number): void;
  /** Counter-store failures and seeding errors. */
  warn?(detail: Record<string, unknown>, message: string): void;
  now?(): number;
}

/** What a hold stands for, to pick headers and name refusals. */
interface HoldMeta {
  hold: Hold;
  kind: LimitKind | 'budget';
  scope: string;
  budget?: BudgetRule;
}

export class LimitsService {
  private readonly index = new RuleIndex();
  private readonly snapshots = new Map<string, RateLimitSnapshot>();
  private readonly seeded = new Map<string, Promise<void>>();
  private readonly warned = new Set<string>();
  private readonly now: () => number;

  constructor(private readonly deps: LimitsDeps) {
    this.now = deps.now ?? Date.now;
    // A Redis that comes back may have lost its counters: seed every budget again (seeding is a no-op where the counter survived).
    deps.counters.onReconnect?.(() => this.seeded.clear());
  }

  /** False while no rule of any kind exists: callers skip admission entirely. */
  get active(): boolean {
    return !this.deps.rules.empty;
  }

  get leaseMs(): number {
    return this.deps.settings.leaseMs;
  }

  /**
   * Takes the call's holds, or throws the refusal. Undefined when no rule applies (nothing to end).
   */
  async admit(request: AdmissionRequest): Promise<Admission | undefined> {
    const { rules } = this.deps;
    if (rules.empty) return undefined;
    const now = this.now();
    const kinds = request.task ? TASK_KINDS : CALL_KINDS;
    const limits = this.index.limitsFor(rules.limits(), request.keyId, request.accountId, request.model, kinds);
    const budgets = this.index.budgetsFor(rules.budgets(), request.keyId, request.accountId);
    if (limits.length === 0 && budgets.length === 0) return undefined;
    if (budgets.length > 0 && !this.deps.settings.allowUnpriced && this.deps.priceOf(request.model) === undefined) throw unpricedRefusal(request.model);

    const needsSize = budgets.length > 0 || limits.some((rule) => rule.kind === 'tokens_per_minute');
    const size = needsSize && !request.task ? await this.sizeOf(request) : { tokens: 0, costNusd: 0 };
    const metas: HoldMeta[] = limits.map((rule) => ({ hold: limitHold(rule, size.tokens), kind: rule.kind, scope: rule.scope }));
    for (const budget of budgets) {
      const { start, end } = periodBounds(budget.period, budget.timeZone, now);
      const counter = budgetCounter(budget, start);
      const hold: Hold = {
        type: 'spend',
        counter,
        limitNusd: budget.limitNusd,
        amountNusd: request.task ? request.task.amountNusd : size.costNusd,
        expiresAt: end === null ? null : end + DAY_MS,
        label: budgetLabel(budget, end),
      };
      metas.push({ hold, kind: 'budget', scope: budget.scope, budget });
      await this.seed(budget, counter, start, end, hold.expiresAt);
    }
    const reservationId = request.task ? request.task.id : request.requestId;
    let result: Awaited<ReturnType<CounterStore['admit']>>;
    try {
      result = await this.deps.counters.admit({
        reservationId,
        holds: metas.map((meta) => meta.hold),
        now,
        leaseMs: request.task ? request.task.leaseMs : this.deps.settings.leaseMs,
      });
    } catch (error) {
      this.deps.warn?.({ err: error, requestId: request.requestId }, 'limits: counter store unavailable; call refused');
      throw new GatewayError('overloaded', 'Budgets and limits cannot be checked right now; retry in a moment.', {
        code: 'budget_unavailable',
        retryAfter: 1,
        cause: error,
      });
    }
    const snapshot = this.snapshotOf(metas, result.states);
    if (!result.ok) {
      this.keepSnapshot(request.requestId, snapshot);
      throw refusal(metas, result.refused, result.retryAt, now);
    }
    const warnings = this.softWarnings(metas, result.states);
    if (warnings.length > 0) snapshot.budgetWarnings = warnings;
    this.keepSnapshot(request.requestId, snapshot);
    return {
      reservationId,
      tokenCounters: metas.filter((meta) => meta.kind === 'tokens_per_minute').map((meta) => meta.hold.counter),
      spendCounters: metas.filter((meta) => meta.kind === 'budget').map((meta) => meta.hold.counter),
    };
  }

  /** Ends a call's holds: settled to what it used, or released when it never reached an upstream. */
  async end(admission: Admission, ending: CallEnd): Promise<void> {
    const now = this.now();
    if (ending.release) {
      await this.deps.counters.release(admission.reservationId, now);
      return;
    }
    const actual: Record<string, number> = {};
    const tokens = ending.usage ? ending.usage.inputTokens + ending.usage.outputTokens : 0;
    for (const counter of admission.tokenCounters) actual[counter] = tokens;
    for (const counter of admission.spendCounters) actual[counter] = ending.costNusd;
    await this.deps.counters.settle(admission.reservationId, actual, now);
  }

  /**
   * A task reached a terminal status: its slot is freed and its spend settles to what it was
   * charged, or everything is returned when it was refunded (`chargedNusd` undefined). The
   * budget counters are named again from the rules and the task's creation time, so any replica
   * can end a task another admitted.
   */
  async endTask(task: { id: string; keyId: string; accountId: string | null; createdAt: number }, chargedNusd: number | undefined): Promise<void> {
    if (this.deps.rules.empty) return;
    const now = this.now();
    if (chargedNusd === undefined) {
      await this.deps.counters.release(task.id, now);
      return;
    }
    const actual: Record<string, number> = {};
    for (const budget of this.index.budgetsFor(this.deps.rules.budgets(), task.keyId, task.accountId)) {
      actual[budgetCounter(budget, periodBounds(budget.period, budget.timeZone, task.createdAt).start)] = chargedNusd;
    }
    await this.deps.counters.settle(task.id, actual, now);
  }

  /** Keeps the holds of reservations still running on this process. */
  renew(reservationIds: readonly string[]): Promise<void> {
    return this.deps.counters.renew(reservationIds, this.deps.settings.leaseMs, this.now());
  }

  /** The headers' numbers for a request's answer, once (taken when the answer is sent). */
  takeSnapshot(requestId: string): RateLimitSnapshot | undefined {
    if (this.snapshots.size === 0) return undefined;
    const snapshot = this.snapshots.get(requestId);
    if (snapshot) this.snapshots.delete(requestId);
    return snapshot;
  }

  private keepSnapshot(requestId: string, snapshot: RateLimitSnapshot): void {
    if (!snapshot.requests && !snapshot.tokens && !snapshot.budgetWarnings) return;
    if (this.snapshots.size >= MAX_PENDING_SNAPSHOTS) {
      const oldest = this.snapshots.keys().next();
      if (!oldest.done) this.snapshots.delete(oldest.value);
    }
    this.snapshots.set(requestId, snapshot);
  }

  private async sizeOf(request: AdmissionRequest): Promise<{ tokens: number; costNusd: number }> {
    const estimate = request.estimate;
    let input = 0;
    if (estimate?.inputTokens) {
      await loadTokenizer();
      try {
        input = estimate.inputTokens();
      } catch {
        input = 0;
      }
    }
    let output = this.deps.settings.outputTokenEstimate;
    if (estimate?.outputCap) {
      try {
        output = estimate.outputCap() ?? output;
      } catch {
        // An unparsable request is the client's 400 later, from the call itself.
      }
    }
    const usage = { inputTokens: input, outputTokens: output };
    return { tokens: input + output, costNusd: costOfCall(this.deps.priceOf(request.model), usage, estimate?.units ?? 0) };
  }

  /** Seeds a budget's counter from the ledger the first time this process uses it. */
  private seed(budget: BudgetRule, counter: string, start: number, end: number | null, expiresAt: number | null): Promise<void> | undefined {
    const spentInPeriod = this.deps.spentInPeriod;
    if (!spentInPeriod) return undefined;
    let seeding = this.seeded.get(counter);
    if (!seeding) {
      if (this.seeded.size > 100_000) this.seeded.clear();
      seeding = (async () => {
        const spent = await spentInPeriod(budget, start, end);
        await this.deps.counters.seedSpend(counter, spent, expiresAt);
      })().catch((error: unknown) => {
        // Tried again a little later (not by every call: a failing database is not asked on each one); the counter counts from zero meanwhile.
        setTimeout(() => this.seeded.delete(counter), SEED_RETRY_MS).unref();
        this.deps.warn?.({ err: error, budget: budget.id }, 'limits: a budget could not be seeded from the ledger');
      });
      this.seeded.set(counter, seeding);
      // Checked again now and then all the same: a Redis restarted between two calls says nothing.
      setTimeout(() => {
        if (this.seeded.get(counter) === seeding) this.seeded.delete(counter);
      }, RESEED_EVERY_MS).unref();
    }
    return seeding;
  }

  private snapshotOf(metas: readonly HoldMeta[], states: readonly HoldState[]): RateLimitSnapshot {
    const snapshot: RateLimitSnapshot = {};
    for (const state of states) {
      const meta = metas.find((candidate) => candidate.hold.counter === state.counter);
      // A model-wide rule's standing is everyone's usage: it is never shown to one caller.
      if (!meta || meta.scope === 'model') continue;
      const field = meta.kind === 'requests_per_minute' ? 'requests' : meta.kind === 'tokens_per_minute' ? 'tokens' : undefined;
      if (!field) continue;
      const current = snapshot[field];
      if (!current || state.remaining < current.remaining) {
        snapshot[field] = { limit: state.limit, remaining: state.remaining, resetAt: state.resetAt };
      }
    }
    return snapshot;
  }

  private softWarnings(metas: readonly HoldMeta[], states: readonly HoldState[]): string[] {
    const warnings: string[] = [];
    for (const meta of metas) {
      const budget = meta.budget;
      if (!budget || budget.softNusd === null) continue;
      const state = states.find((candidate) => candidate.counter === meta.hold.counter);
      if (!state) continue;
      const spent = budget.limitNusd - state.remaining;
      if (spent < budget.softNusd) continue;
      const name = budgetName(budget);
      warnings.push(`${name}: past its warning threshold`);
      if (!this.warned.has(meta.hold.counter)) {
        if (this.warned.size > 100_000) this.warned.clear();
        this.warned.add(meta.hold.counter);
        this.deps.onSoftThreshold?.(budget, meta.hold.label, spent);
      }
    }
    return warnings;
  }
}

function limitHold(rule: LimitRule, tokens: number): Hold {
  const counter = limitCounter(rule);
  const label = limitLabel(rule);
  if (rule.kind === 'concurrent_requests' || rule.kind === 'unfinished_tasks') return { type: 'count', counter, limit: rule.limit, label };
  return { type: 'rate', counter, limit: rule.limit, amount: rule.kind === 'tokens_per_minute' ? tokens : 1, label };
}

/** A call refused by a limit or a budget; `label` names it on the refusal's usage row (reports group by it). */
export class LimitRefusal extends GatewayError {
  constructor(
    kind: 'rate_limit' | 'insufficient_quota',
    message: string,
    readonly label: string,
    options: ConstructorParameters<typeof GatewayError>[2],
  ) {
    super(kind, message, options);
  }
}

/** The error a refused hold stands for, with `Retry-After` when a retry can succeed. */
function refusal(metas: readonly HoldMeta[], refused: HoldState, retryAt: number | undefined, now: number): GatewayError {
  const meta = metas.find((candidate) => candidate.hold.counter === refused.counter);
  // A slot held by a call in flight frees at an unknown moment: a second is a fair first wait.
  const retryAfter = retryAt !== undefined ? Math.max(1, Math.ceil((retryAt - now) / 1000)) : refused.type === 'count' ? 1 : undefined;
  if (meta?.kind === 'budget') {
    const name = meta.budget ? budgetName(meta.budget) : refused.label;
    return new LimitRefusal('insufficient_quota', `This request would exceed the ${refused.label}.`, name, { code: 'insufficient_quota', retryAfter });
  }
  const when = retryAfter === undefined ? ' This request alone is larger than the limit.' : ` Retry after ${retryAfter} s.`;
  return new LimitRefusal('rate_limit', `Rate limit reached: ${refused.label}.${when}`, refused.label, {
    code: 'rate_limit_exceeded',
    retryAfter,
    rateLimitType: meta?.kind === 'tokens_per_minute' ? 'tokens' : 'requests',
  });
}

/** A budget cannot hold a call whose cost is unknown: refused before anything is held or called. */
function unpricedRefusal(model: string): GatewayError {
  return new GatewayError(
    'permission',
    `The model \`${model}\` has no price in the catalog, and this key is under a budget: its calls could not be counted against it. An operator can price the model (\`gengate models import\`, the models page) or set admission.allowUnpriced.`,
    { code: 'model_unpriced', param: 'model' },
  );
}
