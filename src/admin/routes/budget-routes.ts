/**
 * Budgets (`docs/limits.md`): admins list, create, change and remove them; members list the
 * budgets on their own account and its keys (another's is "not found"). Amounts come in USD
 * (decimal strings or numbers) and are kept and answered in nUSD, with a USD display string.
 * Every change writes the audit log and bumps the `limits` topic.
 */
import type { FastifyInstance } from 'fastify';
import { type BudgetInput, checkBudgetInput, checkPeriod, checkSoftBelowLimit, checkTimeZone, checkUsd, MAX_RULES } from '../../limits/rule-validation.js';
import { type BudgetChange, LimitRulesRepository } from '../../store/limit-rules-repository.js';
import type { Actor } from '../actor.js';
import type { AdminDeps } from '../admin-deps.js';
import { pageSchema } from '../admin-schemas.js';
import { asAdminError, canSee, ruleNotFound, subjectLookup, visibleSubjects } from '../rule-access.js';
import { BUDGET_RULE_SCHEMA, budgetRuleView, RULE_ID_PARAMS, OPTIONAL_USD_SCHEMA, RULE_LIST_QUERY, USD_SCHEMA } from '../rule-schemas.js';

const ONE_BUDGET = { type: 'object', properties: { budget: BUDGET_RULE_SCHEMA }, required: ['budget'] } as const;
const PERIOD = { type: 'string', enum: ['day', 'week', 'month', 'lifetime'] } as const;
const TIME_ZONE = { type: 'string', maxLength: 64, description: 'An IANA time zone (default UTC)' } as const;

interface BudgetPatch {
  limitUsd?: string | number;
  softUsd?: string | number | null;
  period?: string;
  timeZone?: string;
}

export function budgetRoutes(app: FastifyInstance, deps: AdminDeps): void {
  const rules = new LimitRulesRepository(deps.db, MAX_RULES);

  app.get<{ Querystring: { scope?: string; subject?: string } }>(
    '/budgets',
    {
      config: { access: 'signed-in' },
      schema: {
        tags: ['budgets'],
        summary: "Budgets, oldest first: every budget (admin), or those on a member's own account and its keys",
        querystring: RULE_LIST_QUERY,
        response: { 200: pageSchema(BUDGET_RULE_SCHEMA) },
      },
    },
    async (request) => {
      const visible = await visibleSubjects(request.actor as Actor, deps);
      const rows = await rules.listBudgets(request.query);
      return { data: rows.filter((rule) => canSee(visible, rule)).map(budgetRuleView), nextCursor: null };
    },
  );

  app.get<{ Params: { id: string } }>(
    '/budgets/:id',
    {
      config: { access: 'signed-in' },
      schema: { tags: ['budgets'], summary: "One budget (a member's own account's or key's only)", params: RULE_ID_PARAMS, response: { 200: ONE_BUDGET } },
    },
    async (request) => {
      const found = await rules.findBudget(request.params.id);
      if (!found || !canSee(await visibleSubjects(request.actor as Actor, deps), found)) throw ruleNotFound();
      return { budget: budgetRuleView(found) };
    },
  );

  app.post<{ Body: BudgetInput }>(
    '/budgets',
    {
      config: { access: 'admin' },
      schema: {
        tags: ['budgets'],
        summary: `Create a budget on a key or an account (one per period; 409 \`conflict\` for a second; at most ${MAX_RULES} limit and budget rules in all)`,
        body: {
          type: 'object',
          properties: {
            scope: { type: 'string', enum: ['key', 'account'] },
            subject: { type: 'string', maxLength: 64, description: "The key's or account's id" },
            period: PERIOD,
            timeZone: TIME_ZONE,
            limitUsd: USD_SCHEMA,
            softUsd: OPTIONAL_USD_SCHEMA,
          },
          required: ['scope', 'subject', 'period', 'limitUsd'],
          additionalProperties: false,
        },
        response: { 201: ONE_BUDGET },
      },
    },
    async (request, reply) => {
      try {
        const input = await checkBudgetInput(request.body, subjectLookup(deps));
        const budget = await rules.createBudget(input, Date.now());
        deps.invalidation.publish('limits');
        await deps.audit.record(request, 'budget.create', budget.id, {
          scope: budget.scope,
          subject: budget.subject,
          period: budget.period,
          timeZone: budget.timeZone,
          limitNusd: budget.limitNusd,
          softNusd: budget.softNusd,
        });
        return reply.code(201).send({ budget: budgetRuleView(budget) });
      } catch (error) {
        throw asAdminError(error);
      }
    },
  );

  app.patch<{ Params: { id: string }; Body: BudgetPatch }>(
    '/budgets/:id',
    {
      config: { access: 'admin' },
      schema: {
        tags: ['budgets'],
        summary: 'Change a budget: its cap, soft threshold (null removes it), period or time zone (a new period or zone counts afresh)',
        params: RULE_ID_PARAMS,
        body: {
          type: 'object',
          properties: {
            limitUsd: USD_SCHEMA,
            softUsd: OPTIONAL_USD_SCHEMA,
            period: PERIOD,
            timeZone: TIME_ZONE,
          },
          minProperties: 1,
          additionalProperties: false,
        },
        response: { 200: ONE_BUDGET },
      },
    },
    async (request) => {
      try {
        const body = request.body;
        const change: BudgetChange = {};
        if (body.limitUsd !== undefined) change.limitNusd = checkUsd(body.limitUsd, 'limitUsd');
        if (body.softUsd !== undefined) change.softNusd = body.softUsd === null ? null : checkUsd(body.softUsd, 'softUsd');
        if (body.period !== undefined) change.period = checkPeriod(body.period);
        if (body.timeZone !== undefined) change.timeZone = checkTimeZone(body.timeZone);
        const before = await rules.findBudget(request.params.id);
        if (!before) throw ruleNotFound();
        const budget = await rules.changeBudget(before.id, change, Date.now(), (next) => checkSoftBelowLimit(next.softNusd, next.limitNusd));
        deps.invalidation.publish('limits');
        if (!budget) throw ruleNotFound();
        await deps.audit.record(request, 'budget.change', budget.id, {
          scope: budget.scope,
          subject: budget.subject,
          from: { period: before.period, timeZone: before.timeZone, limitNusd: before.limitNusd, softNusd: before.softNusd },
          to: { period: budget.period, timeZone: budget.timeZone, limitNusd: budget.limitNusd, softNusd: budget.softNusd },
        });
        return { budget: budgetRuleView(budget) };
      } catch (error) {
        throw asAdminError(error);
      }
    },
  );

  app.delete<{ Params: { id: string } }>(
    '/budgets/:id',
    {
      config: { access: 'admin' },
      schema: { tags: ['budgets'], summary: 'Remove a budget', params: RULE_ID_PARAMS, response: { 200: ONE_BUDGET } },
    },
    async (request) => {
      const budget = await rules.removeBudget(request.params.id);
      deps.invalidation.publish('limits');
      if (!budget) throw ruleNotFound();
      await deps.audit.record(request, 'budget.remove', budget.id, {
        scope: budget.scope,
        subject: budget.subject,
        period: budget.period,
        limitNusd: budget.limitNusd,
      });
      return { budget: budgetRuleView(budget) };
    },
  );
}
