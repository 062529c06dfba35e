/**
 * The access log: one line per request, without the query string (Gemini keys ride in `?key=`),
 * and for a request that failed its error type (`core/error-type.ts`) — set on the request
 * (`http/request-record.ts`) where the error response is written (`replyWithError`: errors
 * before any call, like a refused key or a body over the limit, and a call's error), or by the
 * call's end when the failure did not change the status (a stream's error event after its 200):
 * the call holds its request (`CallOrigin.http`), so nothing is kept by request id.
 */
import type { FastifyInstance } from 'fastify';

export function installAccessLog(http: FastifyInstance): void {
  http.addHook('onResponse', (request, reply, done) => {
    const line: Record<string, unknown> = {
      method: request.method,
      url: request.url.split('?')[0],
      status: reply.statusCode,
      ms: Math.round(reply.elapsedTime),
    };
    // The gateway's own share of the time (`metrics/timing-headers.ts`), when the answer carries it.
    const overheadMs = reply.getHeader('x-gengate-overhead-ms');
    if (overheadMs !== undefined) line.overheadMs = overheadMs;
    if (request.errorType !== undefined) line.errorType = request.errorType;
    request.log.info(line, 'request');
    done();
  });
}
