/**
 * What every task family's scope starts with: its error shape for everything the scope answers,
 * and the client's key checked on the headers, before the body is read.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { GatewayServices } from '../../gateway/contract.js';
import { authenticateFirst } from '../../http/authenticate-first.js';
import type { ErrorRenderer } from '../../http/error-renderer.js';
import { bearerToken, useErrorRenderer } from '../../http/reply-helpers.js';

export function openTaskScope(
  app: FastifyInstance,
  services: Pick<GatewayServices, 'authenticate'>,
  render: ErrorRenderer,
  presentedKey: (request: FastifyRequest) => string | undefined = bearerToken,
): void {
  useErrorRenderer(app, render);
  authenticateFirst(app, (presented) => services.authenticate(presented), presentedKey);
}
