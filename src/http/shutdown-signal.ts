/**
 * The gateway's shutdown signal: aborted when the drain deadline passes, with a GatewayError
 * that says so. Every call's `clientSignal` follows it, so in-flight calls end through their
 * normal error path — a dialect error response, or the dialect's in-stream error event.
 */
import { setMaxListeners } from 'node:events';
import type { FastifyInstance } from 'fastify';
import { GatewayError } from '../core/errors.js';

declare module 'fastify' {
  interface FastifyInstance {
    shutdownSignal?: AbortSignal;
  }
}

export function shuttingDownError(): GatewayError {
  return new GatewayError('overloaded', 'The gateway is shutting down; retry the request.', { code: 'shutting_down', retryable: false });
}

/** Decorates `app` (and so every route scope) with the signal; abort the controller to cut calls. */
export function installShutdownSignal(app: FastifyInstance): AbortController {
  const controller = new AbortController();
  // One listener per in-flight call.
  setMaxListeners(0, controller.signal);
  app.decorate('shutdownSignal', controller.signal);
  return controller;
}
