/**
 * Which rules apply to one call. Key and account rules of the caller, and model-scope rules whose
 * pattern matches. A key or account rule with a model pattern is an override: for the models it
 * matches it replaces that subject's pattern-less rule of the same kind, the longest matching
 * pattern winning among overrides. The rules are indexed by subject once per rule-set version
 * (the `RuleSource` hands out a new array on every change), so a call looks at its own rules only.
 */
import { compileModelPattern } from '../routing/model-pattern.js';
import type { BudgetRule, LimitKind, LimitRule } from './contract.js';

interface LimitIndex {
  source: readonly LimitRule[];
  bySubject: Map<string, LimitRule[]>;
  modelRules: LimitRule[];
}

interface BudgetIndex {
  source: readonly BudgetRule[];
  bySubject: Map<string, BudgetRule[]>;
}

/** A cache of compiled patterns; bounded, since patterns come from stored rules. */
const matchers = new Map<string, (model: string) => boolean>();

export function patternMatches(pattern: string, model: string): boolean {
  let matcher = matchers.get(pattern);
  if (!matcher) {
    if (matchers.size > 4096) matchers.clear();
    matcher = compileModelPattern(pattern);
    matchers.set(pattern, matcher);
  }
  return matcher(model);
}

const subjectKey = (scope: string, subject: string) => `${scope}\u0000${subject}`;

export class RuleIndex {
  private limitIndex?: LimitIndex;
  private budgetIndex?: BudgetIndex;

  /** The limit rules that apply to a call of `keyId` (and `accountId`) on `model`, of the given kinds. */
  limitsFor(rules: readonly LimitRule[], keyId: string, accountId: string | null, model: string, kinds: ReadonlySet<LimitKind>): LimitRule[] {
    const index = this.limits(rules);
    const chosen: LimitRule[] = [];
    const subjects: Array<LimitRule[] | undefined> = [index.bySubject.get(subjectKey('key', keyId))];
    if (accountId) subjects.push(index.bySubject.get(subjectKey('account', accountId)));
    for (const own of subjects) {
      if (!own) continue;
      const best = new Map<LimitKind, LimitRule>();
      for (const rule of own) {
        if (!kinds.has(rule.kind)) continue;
        if (rule.model !== null && !patternMatches(rule.model, model)) continue;
        const current = best.get(rule.kind);
        if (current === undefined || specificity(rule) > specificity(current)) best.set(rule.kind, rule);
      }
      chosen.push(...best.values());
    }
    for (const rule of index.modelRules) {
      if (kinds.has(rule.kind) && rule.model !== null && patternMatches(rule.model, model)) chosen.push(rule);
    }
    return chosen;
  }

  /** The budgets of the key and of its account. */
  budgetsFor(rules: readonly BudgetRule[], keyId: string, accountId: string | null): BudgetRule[] {
    const index = this.budgets(rules);
    const own = index.bySubject.get(subjectKey('key', keyId)) ?? [];
    const account = accountId ? (index.bySubject.get(subjectKey('account', accountId)) ?? []) : [];
    return own.length === 0 ? account : account.length === 0 ? own : [...own, ...account];
  }

  private limits(rules: readonly LimitRule[]): LimitIndex {
    if (this.limitIndex?.source === rules) return this.limitIndex;
    const bySubject = new Map<string, LimitRule[]>();
    const modelRules: LimitRule[] = [];
    for (const rule of rules) {
      if (rule.scope === 'model') {
        modelRules.push(rule);
        continue;
      }
      const key = subjectKey(rule.scope, rule.subject);
      const list = bySubject.get(key);
      if (list) list.push(rule);
      else bySubject.set(key, [rule]);
    }
    this.limitIndex = { source: rules, bySubject, modelRules };
    return this.limitIndex;
  }

  private budgets(rules: readonly BudgetRule[]): BudgetIndex {
    if (this.budgetIndex?.source === rules) return this.budgetIndex;
    const bySubject = new Map<string, BudgetRule[]>();
    for (const rule of rules) {
      const key = subjectKey(rule.scope, rule.subject);
      const list = bySubject.get(key);
      if (list) list.push(rule);
      else bySubject.set(key, [rule]);
    }
    this.budgetIndex = { source: rules, bySubject };
    return this.budgetIndex;
  }
}

/** A pattern-less rule ranks below any override; among overrides, the longer pattern wins. */
function specificity(rule: LimitRule): number {
  return rule.model === null ? -1 : rule.model.length;
}
