/**
 * `gengate budgets rebuild`: every budget's counter of the current period is set again from the
 * ledger (the sum of its subject's usage costs in the period), overwriting what the counter
 * store holds — after a Redis lost its data, or a ledger corrected by hand. Reservations of calls
 * in flight are left alone; only the settled part is rewritten.
 */
import { periodBounds } from './budget-period.js';
import type { BudgetRule, CounterStore } from './contract.js';
import { budgetCounter } from './counter-names.js';

const DAY_MS = 86_400_000;

export interface RebuiltBudget {
  budget: BudgetRule;
  counter: string;
  spentNusd: number;
}

export async function rebuildBudgetCounters(deps: {
  budgets: readonly BudgetRule[];
  counters: CounterStore;
  spentInPeriod(rule: BudgetRule, start: number, end: number | null): Promise<number>;
  now?: number;
}): Promise<RebuiltBudget[]> {
  const now = deps.now ?? Date.now();
  const rebuilt: RebuiltBudget[] = [];
  for (const budget of deps.budgets) {
    const { start, end } = periodBounds(budget.period, budget.timeZone, now);
    const counter = budgetCounter(budget, start);
    const spentNusd = await deps.spentInPeriod(budget, start, end);
    await deps.counters.resetSpend(counter, spentNusd, end === null ? null : end + DAY_MS);
    rebuilt.push({ budget, counter, spentNusd });
  }
  return rebuilt;
}
