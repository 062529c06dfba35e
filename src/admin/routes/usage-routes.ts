/**
 * Usage and spend: `GET /usage` (a report grouped by day, key, account, model, channel or
 * surface, from the daily rollup), `GET /usage.csv` (the same as CSV) and `GET /usage/records`
 * (raw rows, newest first, filtered by error type too), `GET /usage/refusals` (refused calls
 * counted by the limit that refused them) and `GET /usage/errors` (failures counted by error
 * type), both from the raw rows over at most 31 days. A member only ever sees their own account's usage. Reports run off the
 * event loop where the store allows and are bounded in rows and time (`usage-report-runner.ts`);
 * the runner (its worker thread) is closed with the server.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ERROR_TYPES, type ErrorType } from '../../core/error-type.js';
import { GatewayError } from '../../core/errors.js';
import { DAY_MS } from '../../store/usage-rollup.js';
import { USAGE_FILTERS, USAGE_GROUP_BYS, UsageReports, type UsageFilters, type UsageGroupBy, type UsageQuery } from '../../store/usage-report.js';
import { usageReportRunner } from '../../store/usage-report-runner.js';
import { MAX_ERROR_WINDOW_DAYS, countErrorTypes } from '../../store/usage-error-types.js';
import { MAX_REFUSAL_WINDOW_DAYS, countRefusals } from '../../store/usage-refusals.js';
import { accountScope } from '../actor.js';
import type { AdminDeps } from '../admin-deps.js';
import { pageSchema } from '../admin-schemas.js';
import { PAGE_QUERY_SCHEMA, decodeCursor, pageOf } from '../paging.js';
import { usageCsv } from '../usage-csv.js';

const DEFAULT_DAYS = 30;
const DEFAULT_REFUSAL_DAYS = 30;
const MS = { type: 'integer', minimum: 0, maximum: 8_640_000_000_000_000 } as const;
const FILTER_PROPERTIES = Object.fromEntries(USAGE_FILTERS.map((name) => [name, { type: 'string', maxLength: 200 }]));

const REPORT_QUERY = {
  type: 'object',
  properties: {
    from: { ...MS, description: `Unix ms; default ${DEFAULT_DAYS} days before \`to\`. Whole UTC days are reported.` },
    to: { ...MS, description: 'Unix ms; default now.' },
    groupBy: { type: 'string', enum: [...USAGE_GROUP_BYS], default: 'day' },
    ...FILTER_PROPERTIES,
  },
  additionalProperties: false,
} as const;

const ERROR_TYPE = {
  type: 'string',
  enum: [...ERROR_TYPES],
  description: "Whose fault a failure was: `client.*` the caller's, `policy.*` a limit or budget, `upstream.*` the provider's, `gateway.*` the gateway's own",
} as const;

const NULLABLE_MS = { type: ['number', 'null'] } as const;
/** What a usage row and a report row both count. */
const COUNT_FIELDS = {
  inputTokens: { type: 'number' },
  cacheReadTokens: { type: 'number' },
  cacheWriteTokens: { type: 'number' },
  outputTokens: { type: 'number' },
  reasoningTokens: { type: 'number' },
  units: { type: 'number' },
  costNusd: { type: 'integer', description: 'Cost in nUSD (10⁻⁹ USD): the exact figure, the one to add up.' },
  costUsd: { type: 'number', description: 'costNusd in USD, for display only (a float: do not add these up).' },
} as const;

const ROW_SCHEMA = {
  type: 'object',
  properties: {
    group: { type: 'string' },
    label: { type: 'string' },
    requests: { type: 'number' },
    errors: { type: 'number' },
    unpriced: { type: 'number', description: 'Calls to a model without a catalog price: their cost is unknown, not zero.' },
    ...COUNT_FIELDS,
    latencyMs: {
      type: 'object',
      properties: { p50: NULLABLE_MS, p95: NULLABLE_MS, p99: NULLABLE_MS },
      required: ['p50', 'p95', 'p99'],
    },
  },
  required: [
    'group',
    'label',
    'requests',
    'errors',
    'unpriced',
    'inputTokens',
    'cacheReadTokens',
    'cacheWriteTokens',
    'outputTokens',
    'reasoningTokens',
    'units',
    'costNusd',
    'costUsd',
    'latencyMs',
  ],
} as const;

const REPORT_SCHEMA = {
  type: 'object',
  properties: {
    from: { type: 'number', description: 'Start of the first day reported (Unix ms)' },
    to: { type: 'number', description: 'End of the last day reported, exclusive (Unix ms)' },
    groupBy: { type: 'string' },
    totals: ROW_SCHEMA,
    rows: { type: 'array', items: ROW_SCHEMA },
    truncated: { type: 'boolean', description: 'More groups matched than are listed (the costliest are)' },
  },
  required: ['from', 'to', 'groupBy', 'totals', 'rows', 'truncated'],
} as const;

const RECORD_SCHEMA = {
  type: 'object',
  properties: {
    id: { type: 'number' },
    requestId: { type: 'string' },
    createdAt: { type: 'number' },
    accountId: { type: ['string', 'null'] },
    keyId: { type: 'string' },
    surface: { type: 'string' },
    operation: { type: 'string' },
    model: { type: 'string' },
    channel: { type: 'string' },
    provider: { type: 'string' },
    upstreamModel: { type: 'string' },
    outcome: { type: 'string' },
    errorType: { type: ['string', 'null'], enum: [...ERROR_TYPES, null], description: `${ERROR_TYPE.description}; null for a success` },
    stream: { type: 'boolean' },
    unpriced: { type: 'boolean', description: 'The model had no catalog price: costNusd is 0 for want of one.' },
    ...COUNT_FIELDS,
    latencyMs: { type: 'number' },
  },
  required: ['id', 'requestId', 'createdAt', 'keyId', 'model', 'outcome', 'costNusd', 'costUsd'],
} as const;

const REFUSALS_QUERY = {
  type: 'object',
  properties: {
    from: {
      ...MS,
      description: `Unix ms, inclusive; default ${DEFAULT_REFUSAL_DAYS} days before \`to\`. At most ${MAX_REFUSAL_WINDOW_DAYS} days before \`to\`.`,
    },
    to: { ...MS, description: 'Unix ms, exclusive; default now.' },
    keyId: { type: 'string', maxLength: 200 },
    accountId: { type: 'string', maxLength: 200, description: 'Ignored for a member, who only ever sees their own account.' },
  },
  additionalProperties: false,
} as const;

const REFUSALS_SCHEMA = {
  type: 'object',
  properties: {
    refusals: {
      type: 'array',
      description: 'At most 100 groups, the most frequent first',
      items: {
        type: 'object',
        properties: {
          reason: { type: 'string', description: 'The limit or budget that refused, e.g. `key requests per minute (30)`' },
          outcome: { type: 'string', description: '`rate_limit` or `insufficient_quota`' },
          count: { type: 'integer' },
        },
        required: ['reason', 'outcome', 'count'],
      },
    },
    from: { type: 'number' },
    to: { type: 'number' },
  },
  required: ['refusals', 'from', 'to'],
} as const;

const ERRORS_QUERY = {
  type: 'object',
  properties: {
    from: {
      ...MS,
      description: `Unix ms, inclusive; default ${DEFAULT_REFUSAL_DAYS} days before \`to\`. At most ${MAX_ERROR_WINDOW_DAYS} days before \`to\`.`,
    },
    to: { ...MS, description: 'Unix ms, exclusive; default now.' },
    keyId: { type: 'string', maxLength: 200 },
    accountId: { type: 'string', maxLength: 200, description: 'Ignored for a member, who only ever sees their own account.' },
    model: { type: 'string', maxLength: 200 },
    channel: { type: 'string', maxLength: 200 },
  },
  additionalProperties: false,
} as const;

const ERRORS_SCHEMA = {
  type: 'object',
  properties: {
    errors: {
      type: 'array',
      description: 'One entry per error type that occurred, the most frequent first',
      items: { type: 'object', properties: { errorType: ERROR_TYPE, count: { type: 'integer' } }, required: ['errorType', 'count'] },
    },
    from: { type: 'number' },
    to: { type: 'number' },
  },
  required: ['errors', 'from', 'to'],
} as const;

type ErrorsQuerystring = { from?: number; to?: number; keyId?: string; accountId?: string; model?: string; channel?: string };

type RefusalsQuerystring = { from?: number; to?: number; keyId?: string; accountId?: string };

type ReportQuerystring = { from?: number; to?: number; groupBy: UsageGroupBy } & UsageFilters;

function filtersOf(query: UsageFilters): UsageFilters {
  const filters: UsageFilters = {};
  for (const name of USAGE_FILTERS) if (query[name] !== undefined) filters[name] = query[name];
  return filters;
}

function reportQuery(request: FastifyRequest<{ Querystring: ReportQuerystring }>): UsageQuery {
  const { from, to, groupBy } = request.query;
  const end = to ?? Date.now();
  const start = from ?? Math.max(0, end - (DEFAULT_DAYS - 1) * DAY_MS);
  return { from: start, to: end, groupBy, filters: filtersOf(request.query), accountScope: scopeOf(request) };
}

function scopeOf(request: FastifyRequest): string | undefined {
  if (!request.actor) throw new GatewayError('authentication', 'Sign in, or send an admin API key as a Bearer token.', { code: 'unauthenticated' });
  return accountScope(request.actor);
}

const isId = (value: unknown): value is number => typeof value === 'number' && Number.isSafeInteger(value) && value > 0;

export function usageRoutes(app: FastifyInstance, deps: AdminDeps): void {
  const reports = new UsageReports(deps.db);
  const runner = usageReportRunner(deps.store, { maxRows: deps.config.limits.usageReportMaxRows, timeoutMs: deps.config.limits.usageReportTimeoutMs });
  app.addHook('onClose', () => runner.close());

  app.get<{ Querystring: ReportQuerystring }>(
    '/usage',
    {
      config: { access: 'signed-in' },
      schema: {
        tags: ['usage'],
        summary: 'Usage and spend over whole UTC days (at most 366), grouped; members see only their own account',
        querystring: REPORT_QUERY,
        response: { 200: REPORT_SCHEMA },
      },
    },
    async (request) => runner.summarize(reportQuery(request)),
  );

  app.get<{ Querystring: ReportQuerystring }>(
    '/usage.csv',
    {
      config: { access: 'signed-in' },
      schema: {
        tags: ['usage'],
        summary: 'The usage report as CSV (one line per group, then the totals)',
        querystring: REPORT_QUERY,
        response: { 200: { type: 'string', description: 'text/csv' } },
      },
    },
    async (request, reply) => {
      const report = await runner.summarize(reportQuery(request));
      const name = `usage-${new Date(report.from).toISOString().slice(0, 10)}-to-${new Date(report.to - DAY_MS).toISOString().slice(0, 10)}-by-${report.groupBy}.csv`;
      reply.header('content-type', 'text/csv; charset=utf-8');
      reply.header('content-disposition', `attachment; filename="${name}"`);
      return usageCsv(report);
    },
  );

  app.get<{ Querystring: { limit: number; cursor?: string; errorType?: ErrorType } & UsageFilters }>(
    '/usage/records',
    {
      config: { access: 'signed-in' },
      schema: {
        tags: ['usage'],
        summary: 'Raw usage rows, newest first, optionally only failures of one error type; members see only their own account',
        querystring: {
          type: 'object',
          properties: { ...PAGE_QUERY_SCHEMA, ...FILTER_PROPERTIES, errorType: ERROR_TYPE },
          additionalProperties: false,
        },
        response: { 200: pageSchema(RECORD_SCHEMA) },
      },
    },
    async (request) => {
      const { limit, cursor, errorType } = request.query;
      const beforeId = decodeCursor(cursor, isId);
      const rows = await reports.records({ limit: limit + 1, beforeId, filters: filtersOf(request.query), errorType, accountScope: scopeOf(request) });
      return pageOf(
        rows,
        limit,
        (row) => row,
        (row) => row.id,
      );
    },
  );

  app.get<{ Querystring: RefusalsQuerystring }>(
    '/usage/refusals',
    {
      config: { access: 'signed-in' },
      schema: {
        tags: ['usage'],
        summary: `Refused calls (rate limits, budgets) counted by the limit that refused them, over [from, to) of at most ${MAX_REFUSAL_WINDOW_DAYS} days; members see only their own account`,
        querystring: REFUSALS_QUERY,
        response: { 200: REFUSALS_SCHEMA },
      },
    },
    async (request) => {
      const { from, to, keyId, accountId } = request.query;
      const end = to ?? Date.now() + 1;
      const start = from ?? Math.max(0, end - DEFAULT_REFUSAL_DAYS * DAY_MS);
      const refusals = await countRefusals(deps.db, { from: start, to: end, keyId, accountId, accountScope: scopeOf(request) });
      return { refusals, from: start, to: end };
    },
  );

  app.get<{ Querystring: ErrorsQuerystring }>(
    '/usage/errors',
    {
      config: { access: 'signed-in' },
      schema: {
        tags: ['usage'],
        summary: `Failed calls and tasks counted by error type (whose fault: client, policy, upstream, gateway), over [from, to) of at most ${MAX_ERROR_WINDOW_DAYS} days; members see only their own account`,
        querystring: ERRORS_QUERY,
        response: { 200: ERRORS_SCHEMA },
      },
    },
    async (request) => {
      const { from, to, keyId, accountId, model, channel } = request.query;
      const end = to ?? Date.now() + 1;
      const start = from ?? Math.max(0, end - DEFAULT_REFUSAL_DAYS * DAY_MS);
      const errors = await countErrorTypes(deps.db, { from: start, to: end, keyId, accountId, model, channel, accountScope: scopeOf(request) });
      return { errors, from: start, to: end };
    },
  );
}
