/**
 * Errors no surface route handles — on unknown routes (malformed or oversized bodies), on the
 * shared routes, and Fastify's own URL errors (bad percent-encoding, over-long path segments) —
 * answered in the error shape of the family the path belongs to.
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { GatewayError } from '../core/errors.js';
import { answerableError } from './answerable-error.js';
import type { ErrorRenderer } from './error-renderer.js';
import type { ErrorFamilies } from './error-family.js';

/** Writes a GatewayError as `render` shapes it, with its headers and retry-after. */
export function replyWithError(request: FastifyRequest, reply: FastifyReply, error: GatewayError, render: ErrorRenderer): FastifyReply {
  // For the access log's line (`access-log.ts`).
  request.errorType = error.errorType;
  const rendered = render(error, String(request.id));
  if (rendered.headers) for (const [name, value] of Object.entries(rendered.headers)) reply.header(name, value);
  if (error.retryAfter !== undefined) reply.header('retry-after', String(error.retryAfter));
  return reply.code(rendered.status).send(rendered.body);
}

/** The renderer of the request's family (by path; the shared model routes by headers). */
export function rendererFor(request: FastifyRequest, families: ErrorFamilies): ErrorRenderer {
  return families.rendererFor(request.url, request.headers);
}

/** The root error handler: surfaces install their own on their scopes; this covers the rest. */
export function installEdgeErrorHandler(app: FastifyInstance, families: ErrorFamilies): void {
  app.setErrorHandler((error, request, reply) => {
    return replyWithError(request, reply, answerableError(error, request), rendererFor(request, families));
  });
}

/** Fastify's `frameworkErrors` option: URL errors found while routing, before any route runs. */
export function frameworkErrorHandler(families: ErrorFamilies) {
  return (error: FastifyError, request: FastifyRequest, reply: FastifyReply): void => {
    let gatewayError: GatewayError;
    if (error.code === 'FST_ERR_BAD_URL') {
      gatewayError = new GatewayError('invalid_request', 'the request path is not valid percent-encoded UTF-8', { code: 'invalid_url' });
    } else if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') {
      gatewayError = new GatewayError('invalid_request', 'a segment of the request path is too long', { code: 'uri_too_long', status: 414 });
    } else {
      gatewayError = new GatewayError('invalid_request', 'the request could not be routed', { code: 'invalid_request' });
    }
    replyWithError(request, reply, gatewayError, rendererFor(request, families));
  };
}
