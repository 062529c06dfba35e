/**
 * How long each call waited on upstreams, for the timing headers and the metrics: a lifecycle
 * hook notes every attempt's start and end. A clock is kept from a call's first attempt to its
 * end (a Map, not a WeakMap: a WeakMap entry costs about a microsecond a call in the collector);
 * the clock of a call made for a live HTTP request is also found by the request's id, from the
 * moment the request arrived (`track`) until its answer went out or it was abandoned (`untrack`).
 */
import type { Call, LifecycleHooks } from '../gateway/call-lifecycle.js';
import type { RouteInfo } from '../core/route.js';

export class CallClock {
  /** `performance.now()` at the current (or last) attempt's start. */
  attemptAt = 0;
  /** The last attempt's length, start to answer (a stream: to acceptance). */
  lastAttemptMs = 0;
  /** Time spent in attempts that ended. */
  upstreamMs = 0;
  inAttempt = false;
  call?: Call;

  /** Upstream time so far, an attempt in progress included. */
  upstreamSoFar(now: number): number {
    return this.inAttempt ? this.upstreamMs + (now - this.attemptAt) : this.upstreamMs;
  }
}

/** Beyond this many requests in flight the oldest tracking is dropped (its answer then has no timing headers). */
const MAX_TRACKED = 100_000;

export class CallClocks implements LifecycleHooks {
  private readonly byCall = new Map<Call, CallClock>();
  private readonly byRequest = new Map<string, CallClock>();

  /** An HTTP request arrived: its call, if it makes one, is timed under its id. */
  track(requestId: string): void {
    if (this.byRequest.size >= MAX_TRACKED) this.byRequest.clear();
    this.byRequest.set(requestId, new CallClock());
  }

  /** The clock of a tracked request, forgotten. */
  untrack(requestId: string): CallClock | undefined {
    const clock = this.byRequest.get(requestId);
    if (clock) this.byRequest.delete(requestId);
    return clock;
  }

  /** Requests tracked now (for tests: every tracking ends). */
  get tracked(): number {
    return this.byRequest.size;
  }

  of(call: Call): CallClock | undefined {
    return this.byCall.get(call);
  }

  attemptStart(call: Call, _route: RouteInfo): void {
    let clock = this.byCall.get(call);
    if (!clock) {
      if (this.byCall.size >= MAX_TRACKED) this.byCall.clear();
      // A request's calls share its clock (Gemini's batch embeddings: several calls, one answer).
      const id = call.subject.requestId;
      const dot = id.lastIndexOf('.');
      clock = this.byRequest.get(id) ?? (dot > 0 ? this.byRequest.get(id.slice(0, dot)) : undefined) ?? new CallClock();
      clock.call ??= call;
      this.byCall.set(call, clock);
    }
    clock.attemptAt = performance.now();
    clock.inAttempt = true;
  }

  /** Every admitted call ends exactly once: its clock is dropped (its request keeps it until the answer). */
  end(call: Call): void {
    this.byCall.delete(call);
  }

  /** Calls timed now (for tests: every call's clock is dropped at its end). */
  get timedCalls(): number {
    return this.byCall.size;
  }

  attemptEnd(call: Call, _route: RouteInfo): void {
    const clock = this.byCall.get(call);
    if (!clock) return;
    const ms = performance.now() - clock.attemptAt;
    clock.lastAttemptMs = ms;
    clock.upstreamMs += ms;
    clock.inAttempt = false;
  }
}
