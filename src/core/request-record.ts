/**
 * What the features that follow one HTTP request (the access log, the timing headers, traces)
 * keep of it, on the request itself: a call made for the request holds it in its subject
 * (`CallOrigin.http`), so no feature keeps a map by request id. The HTTP layer's request
 * object is the record (`http/request-record.ts` declares its fields on Fastify's request, set
 * in its constructor); a call made for no HTTP request (a background run, a task's poll) has none.
 */
import type { CallClock } from './call-clock.js';
import type { ErrorType } from './error-type.js';

export interface RequestRecord {
  /** The request's headers (traces read the client's `traceparent` when a call's span starts). */
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  /** Whose fault the request's failure was, once known (the access log writes it). */
  errorType?: ErrorType;
  /** The upstream time of the request's calls, when the timing headers or metrics are on. */
  callClock?: CallClock;
}
