/**
 * The names of counters, shared by admission (which takes holds), the admin API (which reads
 * standing) and the rebuild command: one rule and one period always name the same counter on
 * every replica. Names change when what they count changes (a budget's period or time zone),
 * never when only the limit does, so raising a limit keeps what was already used.
 */
import type { BudgetRule, LimitRule } from './contract.js';

/** The counter of a limit rule; for a `model`-scope rule one counter is shared by every caller. */
export function limitCounter(rule: Pick<LimitRule, 'scope' | 'subject' | 'model' | 'kind'>): string {
  return `lim:${rule.kind}:${rule.scope}:${rule.subject}:${rule.model ?? '*'}`;
}

/** The counter of a budget in the period that starts at `periodStart` (0 for `lifetime`). */
export function budgetCounter(rule: Pick<BudgetRule, 'scope' | 'subject' | 'period' | 'timeZone'>, periodStart: number): string {
  return `bud:${rule.scope}:${rule.subject}:${rule.period}:${rule.timeZone}:${periodStart}`;
}
