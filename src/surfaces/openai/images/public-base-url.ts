import type { FastifyRequest } from 'fastify';

/** The base URL the client reached (`http://host:port`), for media links in `url` answers. */
export function publicBaseUrl(request: FastifyRequest): string {
  return `${request.protocol}://${request.host}`;
}
