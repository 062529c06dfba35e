/**
 * `GET /limits/standing`: for one key (or one account), every limit and budget that applies —
 * its own, its account's, and the model rules — with where each counter stands now, read through
 * the counter store's `peek` (nothing is taken). Without a counter store (not wired) or when it
 * cannot answer, the rules come without numbers (null). A member may ask about their own account
 * and its keys only; a model rule's counter is shared by every tenant, so a member sees that
 * rule's limit but not its numbers.
 */
import type { FastifyInstance } from 'fastify';
import { GatewayError } from '../../core/errors.js';
import { periodBounds } from '../../limits/budget-period.js';
import type { BudgetRule, Hold, HoldState, LimitRule } from '../../limits/contract.js';
import { budgetCounter, limitCounter } from '../../limits/counter-names.js';
import { budgetTitle, limitTitle } from '../../limits/limit-labels.js';
import { asBudgetRule, asLimitRule, MAX_RULES } from '../../limits/rule-validation.js';
import { LimitRulesRepository } from '../../store/limit-rules-repository.js';
import { type Actor, isAdmin } from '../actor.js';
import type { AdminDeps } from '../admin-deps.js';
import { BUDGET_RULE_SCHEMA, budgetRuleView, LIMIT_RULE_SCHEMA, limitRuleView } from '../rule-schemas.js';

const RATE_KINDS = new Set(['requests_per_minute', 'tokens_per_minute', 'task_submits_per_minute']);

const NULLABLE_NUMBER = { type: ['number', 'null'] } as const;
const STANDING_SCHEMA = {
  type: 'object',
  properties: {
    keyId: { type: ['string', 'null'] },
    accountId: { type: ['string', 'null'] },
    counters: {
      type: 'string',
      enum: ['live', 'unavailable', 'not_configured'],
      description: 'Whether the numbers below were read (live), the counter store did not answer, or none is set up (numbers are then null)',
    },
    limits: {
      type: 'array',
      items: {
        type: 'object',
        properties: { rule: LIMIT_RULE_SCHEMA, label: { type: 'string' }, used: NULLABLE_NUMBER, remaining: NULLABLE_NUMBER, resetAt: NULLABLE_NUMBER },
        required: ['rule', 'label', 'used', 'remaining', 'resetAt'],
      },
    },
    budgets: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          budget: BUDGET_RULE_SCHEMA,
          label: { type: 'string' },
          periodStart: { type: 'number' },
          periodEnd: { ...NULLABLE_NUMBER, description: 'When the next period starts; null for lifetime' },
          spentNusd: { ...NULLABLE_NUMBER, description: 'Settled plus reserved spend in this period' },
          remainingNusd: NULLABLE_NUMBER,
        },
        required: ['budget', 'label', 'periodStart', 'periodEnd', 'spentNusd', 'remainingNusd'],
      },
    },
  },
  required: ['keyId', 'accountId', 'counters', 'limits', 'budgets'],
} as const;

function limitHold(rule: LimitRule): Hold {
  const common = { counter: limitCounter(rule), limit: rule.limit, label: limitTitle(rule) };
  return RATE_KINDS.has(rule.kind) ? { type: 'rate', ...common, amount: 0 } : { type: 'count', ...common };
}

function budgetHold(rule: BudgetRule, now: number): { hold: Hold; start: number; end: number | null } {
  const { start, end } = periodBounds(rule.period, rule.timeZone, now);
  const hold: Hold = { type: 'spend', counter: budgetCounter(rule, start), limitNusd: rule.limitNusd, amountNusd: 0, expiresAt: end, label: budgetTitle(rule) };
  return { hold, start, end };
}

export function limitStandingRoutes(app: FastifyInstance, deps: AdminDeps): void {
  const rules = new LimitRulesRepository(deps.db, MAX_RULES);

  /** The key (and its account) or the account asked about, as this actor may see it; 404 otherwise. */
  async function subjectOf(actor: Actor, query: { keyId?: string; accountId?: string }): Promise<{ keyId: string | null; accountId: string | null }> {
    const notFound = () => new GatewayError('not_found', query.keyId !== undefined ? 'No such key.' : 'No such account.', { code: 'not_found' });
    if ((query.keyId === undefined) === (query.accountId === undefined)) {
      throw new GatewayError('invalid_request', 'Name exactly one of keyId or accountId.', { param: 'keyId', code: 'invalid_value' });
    }
    if (query.keyId !== undefined) {
      const key = await deps.keys.findById(query.keyId);
      if (!key || (!isAdmin(actor) && (actor.accountId === null || key.accountId !== actor.accountId))) throw notFound();
      return { keyId: key.id, accountId: key.accountId };
    }
    const accountId = query.accountId as string;
    if (!isAdmin(actor) && actor.accountId !== accountId) throw notFound();
    if (!(await deps.accounts.findById(accountId))) throw notFound();
    return { keyId: null, accountId };
  }

  app.get<{ Querystring: { keyId?: string; accountId?: string } }>(
    '/limits/standing',
    {
      config: { access: 'signed-in' },
      schema: {
        tags: ['limits'],
        summary:
          "Every limit and budget that applies to a key (its own, its account's, the model rules) or to an account, with used, remaining and reset times",
        querystring: {
          type: 'object',
          properties: { keyId: { type: 'string', maxLength: 64 }, accountId: { type: 'string', maxLength: 64 } },
          additionalProperties: false,
        },
        response: { 200: STANDING_SCHEMA },
      },
    },
    async (request) => {
      const actor = request.actor as Actor;
      const subject = await subjectOf(actor, request.query);
      const applies = (rule: { scope: string; subject: string }) =>
        (rule.scope === 'key' && rule.subject === subject.keyId) || (rule.scope === 'account' && rule.subject === subject.accountId);
      const limits = (await rules.listLimits()).filter((row) => row.scope === 'model' || applies(row)).flatMap((row) => asLimitRule(row) ?? []);
      const budgets = (await rules.listBudgets()).filter(applies).flatMap((row) => asBudgetRule(row) ?? []);

      const now = Date.now();
      // A model rule's counter is every tenant's: a member sees its limit, not its numbers.
      const counted = limits.filter((rule) => rule.scope !== 'model' || isAdmin(actor));
      const periods = budgets.map((rule) => budgetHold(rule, now));
      const holds = [...counted.map(limitHold), ...periods.map((period) => period.hold)];
      let counters: 'live' | 'unavailable' | 'not_configured' = deps.counters ? 'live' : 'not_configured';
      let states: HoldState[] = [];
      if (deps.counters && holds.length > 0) {
        try {
          states = await deps.counters.peek(holds, now);
        } catch (error) {
          request.log.warn({ err: error }, 'the counter store did not answer a standing read');
          counters = 'unavailable';
        }
      }
      const stateOf = new Map(states.map((state) => [state.counter, state]));
      return {
        ...subject,
        counters,
        limits: limits.map((rule) => {
          const state = counted.includes(rule) ? stateOf.get(limitCounter(rule)) : undefined;
          return {
            rule: limitRuleView(rule),
            label: limitTitle(rule),
            used: state ? Math.max(0, rule.limit - state.remaining) : null,
            remaining: state ? state.remaining : null,
            resetAt: state ? state.resetAt : null,
          };
        }),
        budgets: budgets.map((rule, i) => {
          const { hold, start, end } = periods[i];
          const state = stateOf.get(hold.counter);
          return {
            budget: budgetRuleView(rule),
            label: budgetTitle(rule),
            periodStart: start,
            periodEnd: end,
            spentNusd: state ? Math.max(0, rule.limitNusd - state.remaining) : null,
            remainingNusd: state ? state.remaining : null,
          };
        }),
      };
    },
  );
}
