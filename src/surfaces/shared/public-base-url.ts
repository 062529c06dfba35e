import type { FastifyRequest } from 'fastify';

/** The base URL the client reached (`http://host:port`), for the links the video surfaces hand out. */
export function publicBaseUrl(request: FastifyRequest): string {
  return `${request.protocol}://${request.host}`;
}
