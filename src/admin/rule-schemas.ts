/**
 * How limit and budget rules look in the admin API: their JSON schemas (for validation and the
 * OpenAPI document) and the views that render stored rules. Money is nUSD integers (`…Nusd`)
 * with a USD display string beside it (`…Usd`).
 */
import { displayUsd } from '../limits/display-usd.js';
import { BUDGET_PERIODS, BUDGET_SCOPES, LIMIT_SCOPES, MAX_LIMIT } from '../limits/rule-validation.js';
import { LIMIT_KINDS } from '../limits/contract.js';
import type { StoredBudgetRule, StoredLimitRule } from '../store/limit-rules-repository.js';

export const RULE_ID_PARAMS = { type: 'object', properties: { id: { type: 'string', maxLength: 64 } }, required: ['id'] } as const;

export const RULE_LIST_QUERY = {
  type: 'object',
  properties: {
    scope: { type: 'string', enum: LIMIT_SCOPES },
    subject: { type: 'string', maxLength: 64, description: 'A key or account id' },
  },
  additionalProperties: false,
} as const;

/**
 * A USD amount: a decimal string (`"12.50"`) or a number. Left untyped for the validator, which
 * would coerce between the two (a number into its exponent form, `0` into null): the route checks
 * it exactly (`checkUsd`) and names the field when it is not an amount.
 */
export const USD_SCHEMA = { description: 'USD, as a decimal string ("12.50") or a number; more than zero, at most 9 decimals' } as const;

/** A USD amount, or null to remove it. */
export const OPTIONAL_USD_SCHEMA = { description: 'USD, as a decimal string or a number, below limitUsd; null for none' } as const;

export const LIMIT_RULE_SCHEMA = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    scope: { type: 'string', enum: LIMIT_SCOPES },
    subject: { type: 'string', description: "The key's or account's id; '' for a model rule" },
    model: {
      type: ['string', 'null'],
      description: 'A model id pattern (`*` wildcards): required for a model rule; on a key or account rule an override for the models it matches',
    },
    kind: { type: 'string', enum: LIMIT_KINDS },
    limit: { type: 'integer', minimum: 1, maximum: MAX_LIMIT, description: 'Per minute for rates, at once for counts' },
    createdAt: { type: 'number' },
    updatedAt: { type: 'number' },
  },
  required: ['id', 'scope', 'subject', 'model', 'kind', 'limit', 'createdAt', 'updatedAt'],
} as const;

export const BUDGET_RULE_SCHEMA = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    scope: { type: 'string', enum: BUDGET_SCOPES },
    subject: { type: 'string' },
    period: { type: 'string', enum: BUDGET_PERIODS, description: 'Calendar periods in timeZone (weeks start on Monday); lifetime never resets' },
    timeZone: { type: 'string' },
    limitNusd: { type: 'integer', description: 'The cap, in nano-dollars' },
    limitUsd: { type: 'string', description: 'The cap in USD, for display' },
    softNusd: { type: ['integer', 'null'], description: 'Past this spend answers carry a warning; null: no warning' },
    softUsd: { type: ['string', 'null'] },
    createdAt: { type: 'number' },
    updatedAt: { type: 'number' },
  },
  required: ['id', 'scope', 'subject', 'period', 'timeZone', 'limitNusd', 'limitUsd', 'softNusd', 'softUsd', 'createdAt', 'updatedAt'],
} as const;

export const limitRuleView = (rule: StoredLimitRule) => ({
  id: rule.id,
  scope: rule.scope,
  subject: rule.subject,
  model: rule.model,
  kind: rule.kind,
  limit: rule.limit,
  createdAt: rule.createdAt,
  updatedAt: rule.updatedAt,
});

export const budgetRuleView = (rule: StoredBudgetRule) => ({
  id: rule.id,
  scope: rule.scope,
  subject: rule.subject,
  period: rule.period,
  timeZone: rule.timeZone,
  limitNusd: rule.limitNusd,
  limitUsd: displayUsd(rule.limitNusd),
  softNusd: rule.softNusd,
  softUsd: rule.softNusd === null ? null : displayUsd(rule.softNusd),
  createdAt: rule.createdAt,
  updatedAt: rule.updatedAt,
});
