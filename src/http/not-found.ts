import type { FastifyInstance } from 'fastify';
import { truncateText } from '../core/describe-value.js';
import { GatewayError } from '../core/errors.js';
import { rendererFor, replyWithError } from './edge-errors.js';
import { type ErrorFamilies, isSharedModelsPath } from './error-family.js';

/**
 * Unknown routes get a 404 in the error family of their path. Another method on the shared
 * model routes (`POST /v1/models/{id}`) gets a 405 in the caller's dialect.
 */
export function registerNotFound(app: FastifyInstance, families: ErrorFamilies): void {
  app.setNotFoundHandler((request, reply) => {
    const path = truncateText(request.url.split('?')[0]);
    const error = isSharedModelsPath(request.url.split('?')[0])
      ? new GatewayError('invalid_request', `Method ${request.method} is not allowed on ${path}; use GET.`, { code: 'method_not_allowed', status: 405 })
      : new GatewayError('not_found', `No route for ${request.method} ${path}.`, { code: 'unknown_route' });
    if (error.status === 405) reply.header('allow', 'GET, HEAD');
    return replyWithError(request, reply, error, rendererFor(request, families));
  });
}
