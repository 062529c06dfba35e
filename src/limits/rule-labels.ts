/**
 * The words that name a rule to a caller and an operator: `key requests per minute`, `model
 * concurrent requests`, `account monthly budget` (`docs/limits.md`). A label names the kind of
 * rule, never a subject's id or its numbers, so it may appear in another tenant's refusal.
 */
import type { BudgetPeriod, BudgetRule, LimitKind, LimitRule } from './contract.js';

const KIND_WORDS: Record<LimitKind, string> = {
  requests_per_minute: 'requests per minute',
  tokens_per_minute: 'tokens per minute',
  concurrent_requests: 'concurrent requests',
  task_submits_per_minute: 'task submits per minute',
  unfinished_tasks: 'unfinished tasks',
};

const PERIOD_WORDS: Record<BudgetPeriod, string> = { day: 'daily', week: 'weekly', month: 'monthly', lifetime: 'lifetime' };

export function limitLabel(rule: Pick<LimitRule, 'scope' | 'kind'>): string {
  return `${rule.scope} ${KIND_WORDS[rule.kind]}`;
}

export function budgetLabel(rule: Pick<BudgetRule, 'scope' | 'period'>): string {
  return `${rule.scope} ${PERIOD_WORDS[rule.period]} budget`;
}
