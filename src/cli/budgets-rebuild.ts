/**
 * The body of `gengate budgets rebuild`: recomputes every budget's current-period spend from the
 * ledger and writes it to the counter store, then prints one line per budget. The command line
 * (`budgets` with its other verbs) opens the store, the stored rules and the counter store and
 * hands them here.
 */
import type { BudgetRule, CounterStore } from '../limits/contract.js';
import { formatNusd } from '../ledger/money.js';
import { rebuildBudgetCounters } from '../limits/rebuild-budgets.js';
import type { OpenedStore } from '../store/open-store.js';
import { spentInPeriod } from '../store/budget-spend.js';

export async function runBudgetsRebuild(
  store: OpenedStore,
  budgets: readonly BudgetRule[],
  counters: CounterStore,
  print: (line: string) => void = console.log,
): Promise<void> {
  const rebuilt = await rebuildBudgetCounters({
    budgets,
    counters,
    spentInPeriod: (rule, start, end) => spentInPeriod(store.db, rule.scope, rule.subject, start, end),
  });
  if (rebuilt.length === 0) {
    print('no budgets: nothing to rebuild');
    return;
  }
  for (const { budget, spentNusd } of rebuilt) {
    print(`${budget.id}  ${budget.scope} ${budget.subject}  ${budget.period}  spent ${formatNusd(spentNusd)} of ${formatNusd(budget.limitNusd)} USD`);
  }
  print(`rebuilt ${rebuilt.length} budget${rebuilt.length === 1 ? '' : 's'} from the ledger`);
}
