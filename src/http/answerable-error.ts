/**
 * What an error handler answers for anything thrown: the client's own errors as they are; the
 * database unreachable (a restart, a crash) as a 503 the client may retry; any other unexpected
 * one (a database's error, a bug) is logged with its detail and answered as a generic internal
 * error that names the request id, so that nothing of it — a database message, a path, a stack —
 * reaches the client, and an operator can find it in the log.
 */
import type { FastifyRequest } from 'fastify';
import { isDatabaseUnavailable } from '../core/database-unavailable.js';
import { GatewayError } from '../core/errors.js';
import { gatewayErrorFromFastify } from './fastify-errors.js';

export function answerableError(error: unknown, request: FastifyRequest): GatewayError {
  const known = gatewayErrorFromFastify(error);
  if (known && known.kind !== 'internal') return known;
  if (!known && isDatabaseUnavailable(error)) {
    request.log.warn({ err: error }, 'database unavailable');
    return new GatewayError('overloaded', 'The database is unavailable right now; try again shortly.', {
      code: 'database_unavailable',
      retryAfter: 1,
      cause: error,
    });
  }
  request.log.error({ err: error }, 'internal error');
  return known ?? new GatewayError('internal', `internal error (request id ${request.id}); the details are in the gateway's log`, { cause: error });
}
