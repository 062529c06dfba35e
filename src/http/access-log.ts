/**
 * The access log: one line per request, without the query string (Gemini keys ride in `?key=`),
 * and for a request that failed its error type (`core/error-type.ts`) — set where the error
 * response is written (`replyWithError`: errors before any call, like a refused key or a body
 * over the limit, and a call's error), or by the call's end when the failure did not change the
 * status (a stream's error event after its 200).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ErrorType } from '../core/error-type.js';

/** What this needs of the call lifecycle (`gateway/call-lifecycle.ts`, a floor above): a hook at each call's end. */
interface CallEnds {
  use(hooks: { end?(call: { subject: { requestId: string } }, ending: { errorType?: ErrorType }): void }): void;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Whose fault the request's failure was, once known. */
    errorType?: ErrorType;
  }
}

export function installAccessLog(http: FastifyInstance, lifecycle: CallEnds): void {
  http.decorateRequest('errorType', undefined);
  // Requests in flight by id, for the call's end to find its request (bounded by the requests being served).
  const inFlight = new Map<string, FastifyRequest>();
  http.addHook('onRequest', (request, _reply, done) => {
    inFlight.set(String(request.id), request);
    done();
  });
  lifecycle.use({
    end: (call, ending) => {
      if (ending.errorType === undefined) return;
      const request = inFlight.get(call.subject.requestId);
      if (request) request.errorType = ending.errorType;
    },
  });
  http.addHook('onResponse', (request, reply, done) => {
    inFlight.delete(String(request.id));
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
