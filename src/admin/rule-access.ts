/**
 * Who may see which limit and budget rules, and how rule refusals read in the admin API. Admins
 * see every rule; a member sees only rules whose subject is their own account or one of its keys
 * (a model rule, or another account's rule, is "not found" to them, like an unknown id).
 */
import { GatewayError } from '../core/errors.js';
import { type SubjectLookup, RuleProblem } from '../limits/rule-validation.js';
import { DuplicateRuleError, RuleCountError } from '../store/limit-rules-repository.js';
import { type Actor, isAdmin } from './actor.js';
import type { AdminDeps } from './admin-deps.js';

/** The ids a member's rules may name: their account's and its keys'; undefined for an admin (every id). */
export async function visibleSubjects(actor: Actor, deps: Pick<AdminDeps, 'keys'>): Promise<Set<string> | undefined> {
  if (isAdmin(actor)) return undefined;
  if (actor.accountId === null) return new Set();
  // Members hold at most `limits.maxKeysPerAccount` active keys; revoked ones stay listed, so read generously.
  const keys = await deps.keys.page({ accountId: actor.accountId }, 100_000);
  return new Set([actor.accountId, ...keys.map((key) => key.id)]);
}

export function canSee(visible: Set<string> | undefined, rule: { scope: string; subject: string }): boolean {
  return visible === undefined || (rule.scope !== 'model' && visible.has(rule.subject));
}

export function subjectLookup(deps: Pick<AdminDeps, 'keys' | 'accounts'>): SubjectLookup {
  return {
    keyExists: async (id) => (await deps.keys.findById(id)) !== undefined,
    accountExists: async (id) => (await deps.accounts.findById(id)) !== undefined,
  };
}

export const ruleNotFound = () => new GatewayError('not_found', 'No such rule.', { code: 'not_found' });

/** A rule problem or a store refusal as the admin API's error; anything else as it is. */
export function asAdminError(error: unknown): unknown {
  if (error instanceof RuleProblem) return new GatewayError('invalid_request', error.message, { param: error.field, code: error.code });
  if (error instanceof DuplicateRuleError) {
    return new GatewayError('invalid_request', `A rule for the same thing exists already (${error.existingId}): change or remove that one.`, {
      status: 409,
      code: 'conflict',
    });
  }
  if (error instanceof RuleCountError) {
    return new GatewayError('invalid_request', `At most ${error.max} limit and budget rules may exist; remove some first.`, {
      status: 409,
      code: 'too_many_rules',
    });
  }
  return error;
}
