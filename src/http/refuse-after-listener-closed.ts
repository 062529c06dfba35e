/**
 * Once the listener has closed for a drain, a request that still arrives (on a kept-alive
 * connection) is refused in its surface's error shape — a 503 `shutting_down` the client may
 * retry on another replica — instead of Fastify's generic 503. Fastify adds `connection: close`
 * to every answer once closing, so the client reconnects elsewhere. The probes keep answering.
 */
import type { FastifyInstance } from 'fastify';
import { GatewayError } from '../core/errors.js';
import { rendererFor, replyWithError } from './edge-errors.js';
import type { ErrorFamilies } from './error-family.js';

const PROBES = new Set(['/healthz', '/readyz']);

export function refusedWhileClosingError(): GatewayError {
  return new GatewayError('overloaded', 'This gateway replica is shutting down and takes no new requests; retry the request.', {
    code: 'shutting_down',
    retryable: true,
  });
}

export function installRefusalAfterListenerClosed(app: FastifyInstance, families: ErrorFamilies, listenerClosed: () => boolean): void {
  // A callback hook, not an async one: every request passes here, and an async hook costs each a promise and a turn.
  app.addHook('onRequest', (request, reply, done) => {
    if (!listenerClosed() || PROBES.has(request.url.split('?')[0])) {
      done();
      return;
    }
    // Answered here: the request goes no further (Fastify's callback hooks answer without `done`).
    replyWithError(request, reply, refusedWhileClosingError(), rendererFor(request, families));
  });
}
