/** The key of an imgtask request: a Bearer token, as the spec's samples send it, or the MJ proxy's own `mj-api-secret` header. */
import type { FastifyRequest } from 'fastify';
import { bearerToken } from '../../http/reply-helpers.js';

export function imgtaskPresentedKey(request: FastifyRequest): string | undefined {
  const secret = request.headers['mj-api-secret'];
  return bearerToken(request) ?? (typeof secret === 'string' && secret.length > 0 ? secret : undefined);
}
