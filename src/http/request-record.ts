/**
 * Fastify's request is the per-request record of `core/request-record.ts`: its fields are
 * declared here and decorated once, so every request is built with them (one object shape, no
 * field added later) and a feature reads or writes them without any lookup by request id.
 */
import type { FastifyInstance } from 'fastify';
import type { CallClock } from '../core/call-clock.js';
import type { ErrorType } from '../core/error-type.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** Whose fault the request's failure was, once known. */
    errorType?: ErrorType;
    /** The upstream time of the request's calls (timing headers, metrics). */
    callClock?: CallClock;
  }
}

export function installRequestRecord(http: FastifyInstance): void {
  http.decorateRequest('errorType', undefined);
  http.decorateRequest('callClock', undefined);
}
