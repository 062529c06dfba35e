/** The audit log (admin): every admin action, newest first. */
import type { FastifyInstance } from 'fastify';
import type { AuditEntry } from '../../store/audit-repository.js';
import type { AdminDeps } from '../admin-deps.js';
import { pageSchema } from '../admin-schemas.js';
import { PAGE_QUERY_SCHEMA, decodeCursor, isTimeSerialCursor, pageOf } from '../paging.js';

const ENTRY_SCHEMA = {
  type: 'object',
  properties: {
    id: { type: 'number' },
    at: { type: 'number' },
    actor: {
      type: 'object',
      properties: { kind: { type: 'string' }, id: { type: ['string', 'null'] }, label: { type: 'string' } },
      required: ['kind', 'id', 'label'],
    },
    action: { type: 'string' },
    target: { type: ['string', 'null'] },
    details: { type: ['object', 'null'], additionalProperties: true },
    ip: { type: ['string', 'null'] },
  },
  required: ['id', 'at', 'actor', 'action', 'target', 'details', 'ip'],
} as const;

const view = (entry: AuditEntry) => ({
  id: Number(entry.id),
  at: entry.at,
  actor: { kind: entry.actor_kind, id: entry.actor_id, label: entry.actor_label },
  action: entry.action,
  target: entry.target,
  details: entry.details === null ? null : (JSON.parse(entry.details) as object),
  ip: entry.ip,
});

export function auditRoutes(app: FastifyInstance, deps: AdminDeps): void {
  app.get<{ Querystring: { limit: number; cursor?: string; action?: string; actor?: string } }>(
    '/audit',
    {
      config: { access: 'admin' },
      schema: {
        tags: ['audit'],
        summary: 'The audit log, newest first; filter by action (e.g. key.create) or actor id',
        querystring: {
          type: 'object',
          properties: { ...PAGE_QUERY_SCHEMA, action: { type: 'string', maxLength: 64 }, actor: { type: 'string', maxLength: 64 } },
          additionalProperties: false,
        },
        response: { 200: pageSchema(ENTRY_SCHEMA) },
      },
    },
    async (request) => {
      const { limit, cursor, action, actor } = request.query;
      const before = decodeCursor(cursor, isTimeSerialCursor);
      const rows = await deps.audit.list({ action, actorId: actor, before }, limit + 1);
      return pageOf(rows, limit, view, (row) => [row.at, Number(row.id)]);
    },
  );
}
