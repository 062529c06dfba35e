/**
 * How long one call (or one request's calls) waited on upstreams: the lifecycle's attempt hooks
 * note each attempt's start and end (`metrics/call-clocks.ts`), the timing headers and the
 * metrics read it. Plain data, kept on the call and on its HTTP request (`request-record.ts`).
 */
export class CallClock {
  /** `performance.now()` at the current (or last) attempt's start. */
  attemptAt = 0;
  /** The last attempt's length, start to answer (a stream: to acceptance). */
  lastAttemptMs = 0;
  /** Time spent in attempts that ended. */
  upstreamMs = 0;
  inAttempt = false;
  /** The first call timed by this clock (a request's answer names it). */
  call?: { readonly subject: { readonly surface: string; readonly operation: string } };

  /** Upstream time so far, an attempt in progress included. */
  upstreamSoFar(now: number): number {
    return this.inAttempt ? this.upstreamMs + (now - this.attemptAt) : this.upstreamMs;
  }
}
