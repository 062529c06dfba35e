/** Where a Gemini client puts its key: `?key=`, `x-goog-api-key` (the SDKs), or a bearer token. */
import type { FastifyRequest } from 'fastify';
import { bearerToken } from '../../http/reply-helpers.js';

export function geminiApiKey(request: FastifyRequest): string | undefined {
  const query = request.query as Record<string, unknown> | undefined;
  const fromQuery = query?.key;
  if (typeof fromQuery === 'string' && fromQuery.length > 0) return fromQuery;
  const header = request.headers['x-goog-api-key'];
  if (typeof header === 'string' && header.length > 0) return header;
  return bearerToken(request);
}
