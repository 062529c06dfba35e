/**
 * How a limit or a budget is named to the client whose call it refused, and on the usage row of
 * the refusal: its scope, what it counts and its own setting (`key requests per minute (30)`,
 * `account monthly budget of $5.00`), never anyone's usage; and their short titles where their
 * numbers stand beside them (the admin API's standing, the dashboard: `key requests per minute`).
 */
import { NUSD_PER_USD } from '../ledger/money.js';
import type { BudgetPeriod, BudgetRule, LimitKind, LimitRule } from './contract.js';

const KIND_WORDS: Record<LimitKind, string> = {
  requests_per_minute: 'requests per minute',
  tokens_per_minute: 'tokens per minute',
  concurrent_requests: 'concurrent requests',
  task_submits_per_minute: 'task submits per minute',
  unfinished_tasks: 'unfinished tasks',
};

const PERIOD_WORDS: Record<BudgetPeriod, string> = { day: 'daily', week: 'weekly', month: 'monthly', lifetime: 'lifetime' };

export function limitLabel(rule: Pick<LimitRule, 'scope' | 'model' | 'kind' | 'limit'>): string {
  const models = rule.model === null ? '' : ` for ${rule.model}`;
  return `${rule.scope} ${KIND_WORDS[rule.kind]}${models} (${rule.limit})`;
}

/** `account monthly budget of $5.00` (the short name, without the reset time). */
export function budgetName(rule: Pick<BudgetRule, 'scope' | 'period' | 'limitNusd'>): string {
  return `${rule.scope} ${PERIOD_WORDS[rule.period]} budget of ${usdText(rule.limitNusd)}`;
}

/** `account monthly budget of $5.00, resets 2026-12-01T00:00:00Z` (lifetime budgets never reset). */
export function budgetLabel(rule: Pick<BudgetRule, 'scope' | 'period' | 'limitNusd'>, periodEnd: number | null): string {
  const name = budgetName(rule);
  return periodEnd === null ? name : `${name}, resets ${new Date(periodEnd).toISOString().replace('.000Z', 'Z')}`;
}

/** nUSD as dollars with at least two decimals (`$5.00`, `$0.015`). */
export function usdText(nusd: number): string {
  const whole = Math.trunc(nusd / NUSD_PER_USD);
  const fraction = String(nusd % NUSD_PER_USD)
    .padStart(9, '0')
    .replace(/0+$/, '')
    .padEnd(2, '0');
  return `$${whole}.${fraction}`;
}

export function limitTitle(rule: Pick<LimitRule, 'scope' | 'kind'>): string {
  return `${rule.scope} ${KIND_WORDS[rule.kind]}`;
}

export function budgetTitle(rule: Pick<BudgetRule, 'scope' | 'period'>): string {
  return `${rule.scope} ${PERIOD_WORDS[rule.period]} budget`;
}
