/**
 * Authentication on the request's headers, before its body is read: a request without a
 * valid key costs the gateway no body buffering or parsing. Each surface installs it on its
 * own plugin with the place its dialect carries the key.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { GatewayError } from '../core/errors.js';
import type { AuthenticatedKey } from '../core/key.js';

declare module 'fastify' {
  interface FastifyRequest {
    gatewayKey?: AuthenticatedKey;
  }
}

type KeyLocator = (request: FastifyRequest) => string | undefined;
export type Authenticator = (presented: string | undefined) => Promise<AuthenticatedKey>;

/** `servedHere`, when given, tells requests the scope's route will hand elsewhere (they need no key here). */
export function authenticateFirst(
  app: FastifyInstance,
  authenticate: Authenticator,
  locate: KeyLocator,
  servedHere?: (request: FastifyRequest) => boolean,
): void {
  app.decorateRequest('gatewayKey', undefined);
  app.addHook('onRequest', async (request) => {
    if (servedHere && !servedHere(request)) return;
    request.gatewayKey = await authenticate(locate(request));
  });
}

/** The key `authenticateFirst` found for this request. */
export function requestKey(request: FastifyRequest): AuthenticatedKey {
  const key = request.gatewayKey;
  if (!key) throw new GatewayError('internal', 'route served without authentication');
  return key;
}
