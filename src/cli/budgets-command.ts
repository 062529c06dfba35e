/**
 * `gengate budgets list|set|clear|rebuild`: budgets from the command line, as the admin API sets
 * them (same checks, audited as the command line). `set` creates the subject's budget of that
 * period or changes it; `rebuild` sets the shared spend counters (Redis) from the ledger.
 */
import type { GatewayConfig } from '../config/types.js';
import { openCounterStore } from '../limits/open-counter-store.js';
import { asBudgetRule, checkBudgetInput, RuleProblem } from '../limits/rule-validation.js';
import { displayUsd as displayUsdOf } from '../limits/display-usd.js';
import { LimitRulesRepository, type StoredBudgetRule } from '../store/limit-rules-repository.js';
import { openStore } from '../store/open-store.js';
import { runBudgetsRebuild } from './budgets-rebuild.js';
import { CONFIG_OPTION, parseCommandLine } from './parse-command-line.js';
import { refusing, ruleTable, withRules } from './rules-store.js';
import { UsageError } from './usage.js';

type LoadConfig = (configPath: string | undefined) => GatewayConfig;

function formatBudgets(budgets: readonly StoredBudgetRule[]): string {
  if (budgets.length === 0) return 'no budgets: set one with `gengate budgets set`';
  const rows = budgets.map((b) => [
    b.id,
    b.scope,
    b.subject,
    b.period,
    b.timeZone,
    displayUsdOf(b.limitNusd),
    b.softNusd === null ? '-' : displayUsdOf(b.softNusd),
  ]);
  const header = ['ID', 'SCOPE', 'SUBJECT', 'PERIOD', 'TIME ZONE', 'LIMIT USD', 'SOFT USD'];
  return ruleTable(header, rows);
}

export async function budgetsCommand(args: string[], loadConfig: LoadConfig): Promise<void> {
  const [action, ...rest] = args;
  const subjectOptions = { key: { type: 'string' }, account: { type: 'string' } } as const;
  if (action === 'list') {
    const { values } = parseCommandLine('budgets list', rest, { ...CONFIG_OPTION, ...subjectOptions, json: { type: 'boolean' } }, { min: 0, max: 0 });
    await refusing(async () => {
      const budgets = await withRules(loadConfig(values.config), async (stores) => {
        if (values.key !== undefined) return stores.rules.listBudgets({ scope: 'key', subject: values.key });
        if (values.account !== undefined) return stores.rules.listBudgets({ scope: 'account', subject: await stores.accountId(values.account) });
        return stores.rules.listBudgets();
      });
      console.log(values.json ? JSON.stringify(budgets, null, 2) : formatBudgets(budgets));
    });
    return;
  }
  if (action === 'set') {
    const { values } = parseCommandLine(
      'budgets set',
      rest,
      { ...CONFIG_OPTION, ...subjectOptions, period: { type: 'string' }, limit: { type: 'string' }, soft: { type: 'string' }, 'time-zone': { type: 'string' } },
      { min: 0, max: 0 },
    );
    if ((values.key === undefined) === (values.account === undefined)) throw new UsageError('"gengate budgets set" needs one of --key or --account');
    if (values.period === undefined || values.limit === undefined) throw new UsageError('"gengate budgets set" needs --period and --limit (USD)');
    await refusing(async () => {
      const { budget, created } = await withRules(loadConfig(values.config), async (stores) => {
        const scope = values.key !== undefined ? 'key' : 'account';
        const subject = values.key ?? (await stores.accountId(values.account as string));
        const input = await checkBudgetInput(
          { scope, subject, period: values.period, timeZone: values['time-zone'], limitUsd: values.limit, softUsd: values.soft },
          stores.lookup,
        );
        const same = (await stores.rules.listBudgets({ scope, subject })).find((b) => b.period === input.period);
        const details = { scope, subject, period: input.period, timeZone: input.timeZone, limitNusd: input.limitNusd, softNusd: input.softNusd };
        if (same) {
          const changed = (await stores.rules.changeBudget(same.id, input, Date.now())) as StoredBudgetRule;
          await stores.audit('budget.change', same.id, details);
          return { budget: changed, created: false };
        }
        const budget = await stores.rules.createBudget(input, Date.now());
        await stores.audit('budget.create', budget.id, details);
        return { budget, created: true };
      });
      const soft = budget.softNusd === null ? '' : `, warns past $${displayUsdOf(budget.softNusd)}`;
      console.log(
        `${created ? 'created' : 'changed'} ${budget.id}: ${budget.scope} ${budget.subject} $${displayUsdOf(budget.limitNusd)} per ${budget.period} (${budget.timeZone})${soft}`,
      );
    });
    return;
  }
  if (action === 'clear') {
    const { values, positionals } = parseCommandLine('budgets clear', rest, CONFIG_OPTION, {
      min: 1,
      max: 1,
      names: 'a BUDGET_ID (see `gengate budgets list`)',
    });
    const id = positionals[0];
    await refusing(async () => {
      const removed = await withRules(loadConfig(values.config), async (stores) => {
        const budget = await stores.rules.removeBudget(id);
        if (budget)
          await stores.audit('budget.remove', budget.id, { scope: budget.scope, subject: budget.subject, period: budget.period, limitNusd: budget.limitNusd });
        return budget;
      });
      if (!removed) throw new RuleProblem('subject', `no budget ${id} (see \`gengate budgets list\`)`);
      console.log(`cleared ${id}`);
    });
    return;
  }
  if (action === 'rebuild') {
    const { values } = parseCommandLine('budgets rebuild', rest, CONFIG_OPTION, { min: 0, max: 0 });
    const config = loadConfig(values.config);
    if (!config.redisUrl) {
      console.log('no shared counters (GENGATE_REDIS_URL is not set): each gateway process seeds its budgets from the ledger when it starts using them');
      return;
    }
    const store = await openStore(config.databaseUrl);
    // The command waits longer than a call would, and fails rather than writing nothing quietly.
    const counters = openCounterStore({ redisUrl: config.redisUrl, timeoutMs: 5_000, failure: { rates: 'closed', counts: 'closed', budgets: 'closed' } });
    try {
      const budgets = (await new LimitRulesRepository(store.db).listBudgets()).flatMap((row) => asBudgetRule(row) ?? []);
      await runBudgetsRebuild(store, budgets, counters);
    } finally {
      await counters.close();
      await store.close();
    }
    return;
  }
  throw new UsageError(
    action ? `unknown budgets action "${action}": use list, set, clear or rebuild` : '"gengate budgets" needs an action: list, set, clear or rebuild',
  );
}
