/**
 * Tasks (signed in; a member sees only their account's): list and filter, one task's timeline,
 * results, ledger and webhook deliveries, and cancel. Another account's task answers like an
 * unknown one.
 */
import type { FastifyInstance } from 'fastify';
import { ERROR_TYPES } from '../../core/error-type.js';
import { GatewayError } from '../../core/errors.js';
import type { AuthenticatedKey } from '../../core/key.js';
import type { TaskStatus, TaskSurface } from '../../core/task.js';
import { publicBaseUrl } from '../../http/public-base-url.js';
import { nusdToUsd } from '../../core/money.js';
import { TaskAdminQueries } from '../../store/task-admin-queries.js';
import type { StoredTask } from '../../store/tasks-repository.js';
import { taskMediaUrl } from '../../tasks/task-media-url.js';
import { type Actor, accountScope } from '../actor.js';
import type { AdminDeps } from '../admin-deps.js';
import { pageSchema } from '../admin-schemas.js';
import { PAGE_QUERY_SCHEMA, decodeCursor, isTimeTextCursor, pageOf } from '../paging.js';

const STATUSES: TaskStatus[] = ['queued', 'submitted', 'running', 'succeeded', 'failed', 'canceled'];

const TASK_FIELDS = {
  id: { type: 'string' },
  family: { type: 'string' },
  operation: { type: 'string' },
  model: { type: 'string' },
  status: { type: 'string', enum: STATUSES },
  progress: { type: 'number' },
  keyId: { type: 'string' },
  accountId: { type: ['string', 'null'] },
  createdAt: { type: 'number' },
  finishedAt: { type: ['number', 'null'] },
  priceNusd: { type: 'integer', description: 'Reserved at submit, in nUSD (10⁻⁹ USD): the amount to add up.' },
  priceUsd: { type: 'number', description: 'priceNusd in USD, for display only (a float: do not add these up).' },
  errorCode: { type: ['string', 'null'] },
  errorMessage: { type: ['string', 'null'] },
  errorType: {
    type: ['string', 'null'],
    enum: [...ERROR_TYPES, null],
    description: 'Whose fault the failure was, for a failed task (e.g. `upstream.timeout`, `upstream.refused`); null otherwise',
  },
} as const;
const TASK_SCHEMA = { type: 'object', properties: TASK_FIELDS, required: Object.keys(TASK_FIELDS) } as const;

const DETAIL_FIELDS = {
  ...TASK_FIELDS,
  prompt: { type: ['string', 'null'] },
  channel: { type: ['string', 'null'] },
  provider: { type: ['string', 'null'] },
  vendorStatus: { type: ['string', 'null'] },
  submittedAt: { type: ['number', 'null'] },
  startedAt: { type: ['number', 'null'] },
  updatedAt: { type: 'number' },
  outputs: {
    type: 'array',
    items: {
      type: 'object',
      properties: { url: { type: 'string' }, kind: { type: 'string', enum: ['image', 'video'] }, mime: { type: 'string' }, bytes: { type: 'number' } },
      required: ['url', 'kind'],
    },
  },
} as const;

const DETAIL_SCHEMA = {
  type: 'object',
  properties: {
    task: { type: 'object', properties: DETAIL_FIELDS, required: [...Object.keys(TASK_FIELDS), 'outputs'] },
    timeline: {
      type: 'array',
      items: { type: 'object', properties: { at: { type: 'number' }, event: { type: 'string' }, detail: { type: 'string' } }, required: ['at', 'event'] },
    },
    ledger: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          kind: { type: 'string', enum: ['reserve', 'settle', 'refund'] },
          amountNusd: { type: 'integer', description: 'In nUSD (10⁻⁹ USD).' },
          amountUsd: { type: 'number', description: 'amountNusd in USD, for display only.' },
          at: { type: 'number' },
        },
        required: ['kind', 'amountNusd', 'amountUsd', 'at'],
      },
    },
    webhooks: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          id: { type: 'string' },
          url: { type: 'string' },
          status: { type: 'string' },
          attempts: { type: 'number' },
          lastError: { type: ['string', 'null'] },
          createdAt: { type: 'number' },
          deliveredAt: { type: ['number', 'null'] },
        },
        required: ['id', 'url', 'status', 'attempts', 'lastError', 'createdAt', 'deliveredAt'],
      },
    },
  },
  required: ['task', 'timeline', 'ledger', 'webhooks'],
} as const;

const ID_PARAMS = { type: 'object', properties: { id: { type: 'string', minLength: 1, maxLength: 128 } }, required: ['id'] } as const;

const view = (task: StoredTask) => ({
  id: task.id,
  family: task.surface,
  operation: task.operation,
  model: task.model,
  status: task.status,
  progress: task.progress,
  keyId: task.owner,
  accountId: task.accountId,
  createdAt: task.createdAt,
  finishedAt: task.finishedAt ?? null,
  priceNusd: task.priceNusd,
  priceUsd: nusdToUsd(task.priceNusd),
  errorCode: task.error?.code ?? null,
  errorMessage: task.error?.message ?? null,
  errorType: task.errorType ?? null,
});

function detailView(task: StoredTask, baseUrl: string) {
  return {
    ...view(task),
    prompt: task.request.prompt ?? null,
    channel: task.channel ?? null,
    provider: task.provider ?? null,
    vendorStatus: task.vendorStatus ?? null,
    submittedAt: task.submittedAt ?? null,
    startedAt: task.startedAt ?? null,
    updatedAt: task.updatedAt,
    // Media links, which a browser loads as they are (the video download route wants an API key).
    outputs:
      task.status === 'succeeded'
        ? (task.result?.media ?? []).map((ref) => ({ url: taskMediaUrl(baseUrl, task, ref.mediaId), kind: ref.kind, mime: ref.mime, bytes: ref.bytes }))
        : [],
  };
}

function timelineOf(task: StoredTask): Array<{ at: number; event: string; detail?: string }> {
  const timeline: Array<{ at: number; event: string; detail?: string }> = [{ at: task.createdAt, event: 'created', detail: `${task.operation} ${task.model}` }];
  if (task.submittedAt !== undefined)
    timeline.push({ at: task.submittedAt, event: 'submitted', ...(task.channel ? { detail: `to channel ${task.channel}` } : {}) });
  if (task.startedAt !== undefined) timeline.push({ at: task.startedAt, event: 'started' });
  if (task.finishedAt !== undefined) {
    const detail = task.error ? `${task.error.code}: ${task.error.message}` : undefined;
    timeline.push({ at: task.finishedAt, event: task.status, ...(detail ? { detail } : {}) });
  } else if (task.status === 'running' || task.status === 'submitted') {
    timeline.push({ at: task.updatedAt, event: task.status, detail: `progress ${Math.round(task.progress * 100)}%` });
  }
  return timeline.sort((a, b) => a.at - b.at);
}

const notFound = () => new GatewayError('not_found', 'No such task.', { code: 'not_found' });

export function taskRoutes(app: FastifyInstance, deps: AdminDeps): void {
  const queries = new TaskAdminQueries(deps.db);
  // The guard sets the actor on every signed-in route; without one nothing matches.
  const scopeOf = (request: { actor?: Actor }) => (request.actor ? accountScope(request.actor) : '\u0000none');

  app.get<{ Querystring: { limit: number; cursor?: string; family?: TaskSurface; status?: TaskStatus; key?: string } }>(
    '/tasks',
    {
      config: { access: 'signed-in' },
      schema: {
        tags: ['tasks'],
        summary: "Tasks, newest first; a member sees only their account's. Filter by family (the surface it was created through), status and key",
        querystring: {
          type: 'object',
          properties: {
            ...PAGE_QUERY_SCHEMA,
            family: { type: 'string', enum: deps.tasks.familyNames },
            status: { type: 'string', enum: STATUSES },
            key: { type: 'string', minLength: 1, maxLength: 128 },
          },
          additionalProperties: false,
        },
        response: { 200: pageSchema(TASK_SCHEMA) },
      },
    },
    async (request) => {
      const { limit, cursor, family, status, key } = request.query;
      const before = decodeCursor(cursor, isTimeTextCursor);
      const rows = await queries.list({ accountId: scopeOf(request), surface: family, status, keyId: key, before }, limit + 1);
      return pageOf(rows, limit, view, (task) => [task.createdAt, task.id]);
    },
  );

  app.get<{ Params: { id: string } }>(
    '/tasks/:id',
    {
      config: { access: 'signed-in' },
      schema: {
        tags: ['tasks'],
        summary: 'One task: its results (links a browser can load), timeline, ledger entries and webhook deliveries',
        params: ID_PARAMS,
        response: { 200: DETAIL_SCHEMA },
      },
    },
    async (request) => {
      const task = await queries.find(request.params.id, scopeOf(request));
      if (!task) throw notFound();
      const [ledger, deliveries] = await Promise.all([deps.tasks.repository.ledger(task.id), deps.tasks.deliveries.listForTask(task.id)]);
      return {
        // The caller's checked base, never the one stored with the task (a client's Host in older rows).
        task: detailView(task, publicBaseUrl(request)),
        timeline: timelineOf(task),
        ledger: ledger.map((entry) => ({ kind: entry.kind, amountNusd: entry.amount_nusd, amountUsd: nusdToUsd(entry.amount_nusd), at: entry.created_at })),
        webhooks: deliveries.map((d) => ({
          id: d.id,
          url: d.url,
          status: d.status,
          attempts: d.attempts,
          lastError: d.last_error,
          createdAt: d.created_at,
          deliveredAt: d.delivered_at,
        })),
      };
    },
  );

  app.post<{ Params: { id: string } }>(
    '/tasks/:id/cancel',
    {
      config: { access: 'signed-in' },
      schema: {
        tags: ['tasks'],
        summary: 'Cancel a task not finished yet (upstream too where the vendor allows it); its reserve is refunded. 409 once finished',
        params: ID_PARAMS,
        response: { 200: { type: 'object', properties: { task: TASK_SCHEMA }, required: ['task'] } },
      },
    },
    async (request) => {
      const task = await queries.find(request.params.id, scopeOf(request));
      if (!task) throw notFound();
      if (task.status !== 'submitted' && task.status !== 'running') {
        const why = task.status === 'queued' ? 'is still being submitted; try again in a moment' : `has already ${task.status}`;
        throw new GatewayError('invalid_request', `Task ${task.id} ${why}.`, { status: 409, code: 'conflict' });
      }
      // The engine's cancel is owner-only: act as the key that created the task.
      const owner: AuthenticatedKey = { id: task.owner, name: 'admin cancel', models: null, isMaster: false, accountId: task.accountId };
      const after = await deps.services.tasks.cancel(owner, task.id);
      if (after?.status !== 'canceled') {
        throw new GatewayError('invalid_request', `Task ${task.id} finished (${after?.status ?? 'gone'}) before it could be canceled.`, {
          status: 409,
          code: 'conflict',
        });
      }
      await deps.audit.record(request, 'task.cancel', task.id, { family: task.surface, model: task.model, statusBefore: task.status });
      return { task: view({ ...task, ...after, accountId: task.accountId }) };
    },
  );
}
