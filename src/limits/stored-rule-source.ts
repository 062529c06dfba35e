/**
 * The rules in force on this replica (`RuleSource`), read from the store: all of them at start,
 * and all again whenever the `limits` topic moves on the invalidation bus — which the store's bus
 * raises within a poll (250 ms) of a change by any process on the database. A reload that fails
 * keeps the rules held before (and says so in the log); reloads never overlap, and a change that
 * arrives during one is read by one more. Rows that no check would pass are skipped, logged.
 */
import type { Logger } from 'pino';
import type { InvalidationBus } from '../store/invalidation-bus.js';
import type { LimitRulesRepository } from '../store/limit-rules-repository.js';
import type { BudgetRule, LimitRule, RuleSource } from './contract.js';
import { asBudgetRule, asLimitRule, MAX_RULES } from './rule-validation.js';

export class StoredRuleSource implements RuleSource {
  private limitRules: readonly LimitRule[] = [];
  private budgetRules: readonly BudgetRule[] = [];
  private unsubscribe?: () => void;
  private running?: Promise<void>;
  private again = false;

  constructor(
    private readonly repository: Pick<LimitRulesRepository, 'listLimits' | 'listBudgets'>,
    private readonly bus: InvalidationBus,
    private readonly logger?: Logger,
  ) {}

  limits(): readonly LimitRule[] {
    return this.limitRules;
  }

  budgets(): readonly BudgetRule[] {
    return this.budgetRules;
  }

  get empty(): boolean {
    return this.limitRules.length === 0 && this.budgetRules.length === 0;
  }

  /** Loads the rules (a failure here is the caller's: the gateway should not start without them), then follows changes. */
  async start(): Promise<void> {
    this.unsubscribe = this.bus.subscribe('limits', () => {
      void this.reload().catch((error: unknown) =>
        this.logger?.error({ err: error }, 'reloading limit and budget rules failed; the rules held before stay in force'),
      );
    });
    await this.load();
  }

  stop(): void {
    this.unsubscribe?.();
  }

  /** Reads every rule again (one read at a time; a request during one reads once more after it). */
  reload(): Promise<void> {
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = (async () => {
      try {
        do {
          this.again = false;
          await this.load();
        } while (this.again);
      } finally {
        this.running = undefined;
      }
    })();
    return this.running;
  }

  private async load(): Promise<void> {
    const [limitRows, budgetRows] = await Promise.all([this.repository.listLimits(), this.repository.listBudgets()]);
    const limits: LimitRule[] = [];
    const budgets: BudgetRule[] = [];
    let skipped = 0;
    for (const row of limitRows) {
      const rule = asLimitRule(row);
      if (rule && limits.length < MAX_RULES) limits.push(rule);
      else skipped++;
    }
    for (const row of budgetRows) {
      const rule = asBudgetRule(row);
      if (rule && limits.length + budgets.length < MAX_RULES) budgets.push(rule);
      else skipped++;
    }
    if (skipped > 0)
      this.logger?.warn({ skipped, max: MAX_RULES }, 'some stored limit or budget rules are not in force (invalid, or past the most rules held)');
    this.limitRules = limits;
    this.budgetRules = budgets;
  }
}
