/**
 * The byte length of a request's body, from its `content-length` (Node's parser has checked the
 * header, and Fastify that the body read is that long); undefined for a chunked body. A surface
 * whose canonical request is read from the body alone hands it to routing as a bound of its size.
 */
import type { FastifyRequest } from 'fastify';

export function bodyBytes(request: FastifyRequest): number | undefined {
  const header = request.headers['content-length'];
  if (header === undefined) return undefined;
  const bytes = Number(header);
  return Number.isSafeInteger(bytes) && bytes >= 0 ? bytes : undefined;
}
