/**
 * Limit rules (`docs/limits.md`): admins list, create, change and remove them; members list the
 * rules on their own account and its keys (another's rule is "not found"). Every change writes
 * the audit log and bumps the `limits` topic, so every replica holds it within a second.
 */
import type { FastifyInstance } from 'fastify';
import { checkLimitInput, checkLimitValue, type LimitInput, MAX_LIMIT, MAX_RULES } from '../../limits/rule-validation.js';
import { LIMIT_KINDS } from '../../limits/contract.js';
import { LimitRulesRepository } from '../../store/limit-rules-repository.js';
import type { Actor } from '../actor.js';
import type { AdminDeps } from '../admin-deps.js';
import { pageSchema } from '../admin-schemas.js';
import { asAdminError, canSee, ruleNotFound, subjectLookup, visibleSubjects } from '../rule-access.js';
import { LIMIT_RULE_SCHEMA, limitRuleView, RULE_ID_PARAMS, RULE_LIST_QUERY } from '../rule-schemas.js';

const ONE_RULE = { type: 'object', properties: { rule: LIMIT_RULE_SCHEMA }, required: ['rule'] } as const;

export function limitRoutes(app: FastifyInstance, deps: AdminDeps): void {
  const rules = new LimitRulesRepository(deps.db, MAX_RULES);

  app.get<{ Querystring: { scope?: string; subject?: string } }>(
    '/limits',
    {
      config: { access: 'signed-in' },
      schema: {
        tags: ['limits'],
        summary: "Limit rules, oldest first: every rule (admin), or those on a member's own account and its keys",
        querystring: RULE_LIST_QUERY,
        response: { 200: pageSchema(LIMIT_RULE_SCHEMA) },
      },
    },
    async (request) => {
      const visible = await visibleSubjects(request.actor as Actor, deps);
      const rows = await rules.listLimits(request.query);
      return { data: rows.filter((rule) => canSee(visible, rule)).map(limitRuleView), nextCursor: null };
    },
  );

  app.get<{ Params: { id: string } }>(
    '/limits/:id',
    {
      config: { access: 'signed-in' },
      schema: { tags: ['limits'], summary: "One limit rule (a member's own account's or key's only)", params: RULE_ID_PARAMS, response: { 200: ONE_RULE } },
    },
    async (request) => {
      const found = await rules.findLimit(request.params.id);
      if (!found || !canSee(await visibleSubjects(request.actor as Actor, deps), found)) throw ruleNotFound();
      return { rule: limitRuleView(found) };
    },
  );

  app.post<{ Body: LimitInput }>(
    '/limits',
    {
      config: { access: 'admin' },
      schema: {
        tags: ['limits'],
        summary: `Create a limit rule (at most ${MAX_RULES} limit and budget rules in all; 409 \`conflict\` when the subject already has one of this kind for this model pattern)`,
        body: {
          type: 'object',
          properties: {
            scope: { type: 'string', enum: ['key', 'account', 'model'] },
            subject: { type: ['string', 'null'], maxLength: 64, description: "A key's or account's id; left out (or '') for a model rule" },
            model: { type: ['string', 'null'], maxLength: 400, description: 'A model id pattern (`*` wildcards)' },
            kind: { type: 'string', enum: LIMIT_KINDS },
            limit: { type: 'integer', minimum: 1, maximum: MAX_LIMIT },
          },
          required: ['scope', 'kind', 'limit'],
          additionalProperties: false,
        },
        response: { 201: ONE_RULE },
      },
    },
    async (request, reply) => {
      try {
        const input = await checkLimitInput(request.body, subjectLookup(deps));
        const rule = await rules.createLimit(input, Date.now());
        deps.invalidation.publish('limits');
        await deps.audit.record(request, 'limit.create', rule.id, {
          scope: rule.scope,
          subject: rule.subject,
          model: rule.model,
          kind: rule.kind,
          limit: rule.limit,
        });
        return reply.code(201).send({ rule: limitRuleView(rule) });
      } catch (error) {
        throw asAdminError(error);
      }
    },
  );

  app.patch<{ Params: { id: string }; Body: { limit: number } }>(
    '/limits/:id',
    {
      config: { access: 'admin' },
      schema: {
        tags: ['limits'],
        summary: "Change a limit rule's limit (what was already used is kept)",
        params: RULE_ID_PARAMS,
        body: {
          type: 'object',
          properties: { limit: { type: 'integer', minimum: 1, maximum: MAX_LIMIT } },
          required: ['limit'],
          additionalProperties: false,
        },
        response: { 200: ONE_RULE },
      },
    },
    async (request) => {
      try {
        const limit = checkLimitValue(request.body.limit);
        const before = await rules.findLimit(request.params.id);
        if (!before) throw ruleNotFound();
        const rule = await rules.changeLimit(before.id, limit, Date.now());
        deps.invalidation.publish('limits');
        if (!rule) throw ruleNotFound();
        await deps.audit.record(request, 'limit.change', rule.id, {
          scope: rule.scope,
          subject: rule.subject,
          kind: rule.kind,
          from: before.limit,
          to: rule.limit,
        });
        return { rule: limitRuleView(rule) };
      } catch (error) {
        throw asAdminError(error);
      }
    },
  );

  app.delete<{ Params: { id: string } }>(
    '/limits/:id',
    {
      config: { access: 'admin' },
      schema: { tags: ['limits'], summary: 'Remove a limit rule', params: RULE_ID_PARAMS, response: { 200: ONE_RULE } },
    },
    async (request) => {
      const rule = await rules.removeLimit(request.params.id);
      deps.invalidation.publish('limits');
      if (!rule) throw ruleNotFound();
      await deps.audit.record(request, 'limit.remove', rule.id, {
        scope: rule.scope,
        subject: rule.subject,
        model: rule.model,
        kind: rule.kind,
        limit: rule.limit,
      });
      return { rule: limitRuleView(rule) };
    },
  );
}
