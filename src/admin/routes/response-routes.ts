/**
 * Stored Responses API responses (signed in; a member sees only their account's): list them
 * newest first (an admin may filter by account) and delete one. Another account's response
 * answers like an unknown one; expired ones are gone. Items are not shown: they are the
 * account's conversations, read through the Responses API with the account's own key.
 */
import type { FastifyInstance } from 'fastify';
import { GatewayError } from '../../core/errors.js';
import { StoredResponsesRepository, type StoredResponseSummary } from '../../store/stored-responses-repository.js';
import { type Actor, accountScope } from '../actor.js';
import type { AdminDeps } from '../admin-deps.js';
import { NO_CONTENT, pageSchema } from '../admin-schemas.js';
import { PAGE_QUERY_SCHEMA, decodeCursor, isTimeTextCursor, pageOf } from '../paging.js';

const RESPONSE_FIELDS = {
  id: { type: 'string' },
  accountId: { type: ['string', 'null'] },
  keyId: { type: 'string' },
  model: { type: 'string' },
  status: { type: 'string' },
  previousResponseId: { type: ['string', 'null'] },
  items: { type: 'number', description: 'Input and output items of this turn' },
  bytes: { type: 'number', description: 'Size of what is stored, in characters of JSON' },
  createdAt: { type: 'number' },
  expiresAt: { type: 'number' },
} as const;
const RESPONSE_SCHEMA = { type: 'object', properties: RESPONSE_FIELDS, required: Object.keys(RESPONSE_FIELDS) } as const;
const ID_PARAMS = { type: 'object', properties: { id: { type: 'string', minLength: 1, maxLength: 256 } }, required: ['id'] } as const;

const view = (response: StoredResponseSummary) => ({
  id: response.id,
  accountId: response.accountId,
  keyId: response.keyId,
  model: response.model,
  status: response.status,
  previousResponseId: response.previousResponseId,
  items: response.itemCount,
  bytes: response.bytes,
  createdAt: response.createdAt,
  expiresAt: response.expiresAt,
});

export function responseRoutes(app: FastifyInstance, deps: AdminDeps): void {
  const responses = new StoredResponsesRepository(deps.db);
  // The guard sets the actor on every signed-in route; without one nothing matches.
  const scopeOf = (request: { actor?: Actor }) => (request.actor ? accountScope(request.actor) : '\u0000none');

  app.get<{ Querystring: { limit: number; cursor?: string; account?: string } }>(
    '/responses',
    {
      config: { access: 'signed-in' },
      schema: {
        tags: ['responses'],
        summary: "Stored Responses API responses, newest first; a member sees only their account's, an admin may filter by account",
        querystring: {
          type: 'object',
          properties: { ...PAGE_QUERY_SCHEMA, account: { type: 'string', minLength: 1, maxLength: 128 } },
          additionalProperties: false,
        },
        response: { 200: pageSchema(RESPONSE_SCHEMA) },
      },
    },
    async (request) => {
      const { limit, cursor, account } = request.query;
      const before = decodeCursor(cursor, isTimeTextCursor);
      const scope = scopeOf(request);
      // A member sees their own account only: asking for another one shows nothing.
      if (scope !== undefined && account !== undefined && account !== scope) return { data: [], nextCursor: null };
      const accountId = scope ?? account;
      const filter = accountId === undefined ? { before } : { accountId, before };
      const rows = await responses.list(filter, Date.now(), limit + 1);
      return pageOf(rows, limit, view, (row) => [row.createdAt, row.id]);
    },
  );

  app.delete<{ Params: { id: string } }>(
    '/responses/:id',
    {
      config: { access: 'signed-in' },
      schema: {
        tags: ['responses'],
        summary: 'Delete a stored response: it can no longer be retrieved or continued with previous_response_id (nor can the responses that continue it)',
        params: ID_PARAMS,
        response: NO_CONTENT,
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      if (!(await responses.removeAny(id, Date.now(), scopeOf(request)))) {
        throw new GatewayError('not_found', 'No such stored response.', { code: 'not_found' });
      }
      await deps.audit.record(request, 'response.delete', id);
      return reply.code(204).send();
    },
  );
}
