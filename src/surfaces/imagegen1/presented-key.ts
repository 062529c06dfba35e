/** The key of an imagegen1 request: `Authorization: Bearer <key>`, or Replicate's older `Authorization: Token <key>`. */
import type { FastifyRequest } from 'fastify';

export function imagegen1PresentedKey(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (!header) return undefined;
  const match = /^(?:Bearer|Token)\s+(.+)$/i.exec(header);
  const key = match?.[1].trim();
  return key ? key : undefined;
}
