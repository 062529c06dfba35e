/**
 * The short titles of rules where their numbers stand beside them (the admin API's standing, the
 * dashboard): `key requests per minute`, `model concurrent requests`, `account monthly budget`.
 * A refusal and its usage row name a rule with its setting instead (`limit-labels.ts`).
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

export function limitTitle(rule: Pick<LimitRule, 'scope' | 'kind'>): string {
  return `${rule.scope} ${KIND_WORDS[rule.kind]}`;
}

export function budgetTitle(rule: Pick<BudgetRule, 'scope' | 'period'>): string {
  return `${rule.scope} ${PERIOD_WORDS[rule.period]} budget`;
}
