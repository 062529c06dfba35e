/**
 * What a limit or budget rule may be, checked once for the admin API and the CLI alike: scope,
 * kind and period from their lists, whole positive limits up to a billion, model patterns as a
 * key's, a subject that is an existing key or account (none for a model rule), a known IANA time
 * zone, USD amounts turned into nUSD with a soft threshold below the cap. A refusal is a
 * `RuleProblem` naming the field; each surface words it in its own shape. Rules read back from the
 * store go through `asLimitRule`/`asBudgetRule`, which drop a row no check would pass (written by
 * hand, or by a newer version).
 */
import { modelPatternsProblem } from '../auth/key-rules.js';
import { usdToNusd } from '../ledger/money.js';
import type { StoredBudgetRule, StoredLimitRule } from '../store/limit-rules-repository.js';
import { isKnownTimeZone } from './budget-period.js';
import { type BudgetPeriod, type BudgetRule, LIMIT_KINDS, type LimitKind, type LimitRule, type LimitScope } from './contract.js';

/** The most rules (limits and budgets together) the store accepts: every replica holds them all in memory. */
export const MAX_RULES = 10_000;
/** The largest limit a rule may set (per minute, or at once). */
export const MAX_LIMIT = 1_000_000_000;
export const LIMIT_SCOPES: readonly LimitScope[] = ['key', 'account', 'model'];
export const BUDGET_SCOPES: readonly BudgetRule['scope'][] = ['key', 'account'];
export const BUDGET_PERIODS: readonly BudgetPeriod[] = ['day', 'week', 'month', 'lifetime'];

export class RuleProblem extends Error {
  constructor(
    readonly field: string,
    message: string,
    /** `unknown_subject` when the key or account does not exist; `invalid_value` otherwise. */
    readonly code: 'invalid_value' | 'unknown_subject' = 'invalid_value',
  ) {
    super(message);
    this.name = 'RuleProblem';
  }
}

/** Whether a key or an account of this id exists (revoked keys and disabled accounts still do). */
export interface SubjectLookup {
  keyExists(id: string): Promise<boolean>;
  accountExists(id: string): Promise<boolean>;
}

export interface LimitInput {
  scope: unknown;
  subject?: unknown;
  model?: unknown;
  kind: unknown;
  limit: unknown;
}

export interface BudgetInput {
  scope: unknown;
  subject: unknown;
  period: unknown;
  timeZone?: unknown;
  limitUsd: unknown;
  softUsd?: unknown;
}

function oneOf<T extends string>(value: unknown, allowed: readonly T[], field: string): T {
  if (typeof value === 'string' && (allowed as readonly string[]).includes(value)) return value as T;
  throw new RuleProblem(field, `${field} must be one of ${allowed.join(', ')}.`);
}

export function checkLimitValue(value: unknown, field = 'limit'): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > MAX_LIMIT) {
    throw new RuleProblem(field, `${field} must be a whole number from 1 to ${MAX_LIMIT}.`);
  }
  return value;
}

function checkModelPattern(value: unknown): string {
  if (typeof value !== 'string') throw new RuleProblem('model', 'model must be a model id pattern (`*` wildcards).');
  const pattern = value.trim();
  const problem = modelPatternsProblem([pattern]);
  if (problem) throw new RuleProblem('model', `model ${problem}.`);
  return pattern;
}

async function checkSubject(scope: 'key' | 'account', value: unknown, lookup: SubjectLookup): Promise<string> {
  if (typeof value !== 'string' || value === '' || value.length > 64) {
    throw new RuleProblem('subject', `subject must be the id of ${scope === 'key' ? 'a key' : 'an account'}.`);
  }
  const exists = scope === 'key' ? await lookup.keyExists(value) : await lookup.accountExists(value);
  if (!exists) throw new RuleProblem('subject', `subject: no ${scope} has the id ${JSON.stringify(value)}.`, 'unknown_subject');
  return value;
}

export async function checkLimitInput(input: LimitInput, lookup: SubjectLookup): Promise<Omit<LimitRule, 'id' | 'createdAt' | 'updatedAt'>> {
  const scope = oneOf(input.scope, LIMIT_SCOPES, 'scope');
  const kind: LimitKind = oneOf(input.kind, LIMIT_KINDS, 'kind');
  const limit = checkLimitValue(input.limit);
  const model = input.model === undefined || input.model === null ? null : checkModelPattern(input.model);
  if (scope === 'model') {
    if (input.subject !== undefined && input.subject !== null && input.subject !== '') {
      throw new RuleProblem('subject', 'A model rule has no subject: leave subject out (it applies to every caller).');
    }
    if (model === null) throw new RuleProblem('model', 'A model rule needs a model pattern.');
    return { scope, subject: '', model, kind, limit };
  }
  return { scope, subject: await checkSubject(scope, input.subject, lookup), model, kind, limit };
}

/** A USD amount (a decimal string or a number) as nUSD; `positive` refuses zero. */
export function checkUsd(value: unknown, field: string): number {
  if (typeof value !== 'string' && typeof value !== 'number') throw new RuleProblem(field, `${field} must be an amount of USD, e.g. "25" or "12.50".`);
  let nusd: number;
  try {
    nusd = usdToNusd(value, field);
  } catch (error) {
    throw new RuleProblem(field, `${(error as Error).message}.`);
  }
  if (nusd <= 0) throw new RuleProblem(field, `${field} must be more than zero.`);
  return nusd;
}

export function checkTimeZone(value: unknown): string {
  if (value === undefined || value === null) return 'UTC';
  if (typeof value !== 'string' || value.length > 64 || !isKnownTimeZone(value)) {
    throw new RuleProblem('timeZone', 'timeZone must be an IANA time zone such as UTC or Europe/Paris.');
  }
  return value;
}

export function checkPeriod(value: unknown): BudgetPeriod {
  return oneOf(value, BUDGET_PERIODS, 'period');
}

/** A soft threshold must stay under the cap (it warns before the refusals start). */
export function checkSoftBelowLimit(softNusd: number | null, limitNusd: number): void {
  if (softNusd !== null && softNusd >= limitNusd) throw new RuleProblem('softUsd', 'softUsd must be less than limitUsd.');
}

export async function checkBudgetInput(input: BudgetInput, lookup: SubjectLookup): Promise<Omit<BudgetRule, 'id' | 'createdAt' | 'updatedAt'>> {
  const scope = oneOf(input.scope, BUDGET_SCOPES, 'scope');
  const period = checkPeriod(input.period);
  const timeZone = checkTimeZone(input.timeZone);
  const limitNusd = checkUsd(input.limitUsd, 'limitUsd');
  const softNusd = input.softUsd === undefined || input.softUsd === null ? null : checkUsd(input.softUsd, 'softUsd');
  checkSoftBelowLimit(softNusd, limitNusd);
  const subject = await checkSubject(scope, input.subject, lookup);
  return { scope, subject, period, timeZone, limitNusd, softNusd };
}

/** The stored row as a rule in force, or undefined when it is not one a check would pass. */
export function asLimitRule(row: StoredLimitRule): LimitRule | undefined {
  const scopeOk = (LIMIT_SCOPES as readonly string[]).includes(row.scope);
  const kindOk = (LIMIT_KINDS as readonly string[]).includes(row.kind);
  const limitOk = Number.isInteger(row.limit) && row.limit >= 1 && row.limit <= MAX_LIMIT;
  const shapeOk = row.scope === 'model' ? row.subject === '' && row.model !== null : row.subject !== '';
  return scopeOk && kindOk && limitOk && shapeOk ? (row as LimitRule) : undefined;
}

export function asBudgetRule(row: StoredBudgetRule): BudgetRule | undefined {
  const ok =
    (BUDGET_SCOPES as readonly string[]).includes(row.scope) &&
    row.subject !== '' &&
    (BUDGET_PERIODS as readonly string[]).includes(row.period) &&
    isKnownTimeZone(row.timeZone) &&
    Number.isSafeInteger(row.limitNusd) &&
    row.limitNusd > 0 &&
    (row.softNusd === null || (Number.isSafeInteger(row.softNusd) && row.softNusd >= 0 && row.softNusd < row.limitNusd));
  return ok ? (row as BudgetRule) : undefined;
}
