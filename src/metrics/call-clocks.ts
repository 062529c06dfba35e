/**
 * How long each call waited on upstreams, for the timing headers and the metrics: a lifecycle
 * hook notes every attempt's start and end on the call's clock (`core/call-clock.ts`). The clock
 * is a field of the call, and of its HTTP request (`core/request-record.ts`), which the timing
 * headers read when the answer's headers go out: no map by call or by request id, nothing to
 * forget when a call or a request ends.
 */
import { CallClock } from '../core/call-clock.js';
import type { RouteInfo } from '../core/route.js';
import type { Call, LifecycleHooks } from '../gateway/call-lifecycle.js';

export { CallClock };

export class CallClocks implements LifecycleHooks {
  of(call: Call): CallClock | undefined {
    return call.clock;
  }

  attemptStart(call: Call, _route: RouteInfo): void {
    let clock = call.clock;
    if (clock === undefined) {
      // A request's calls share its clock (Gemini's batch embeddings: several calls, one answer).
      const request = call.subject.http;
      if (request === undefined) clock = new CallClock();
      else {
        clock = request.callClock;
        if (clock === undefined) {
          clock = new CallClock();
          request.callClock = clock;
        }
      }
      clock.call ??= call;
      call.clock = clock;
    }
    clock.attemptAt = performance.now();
    clock.inAttempt = true;
  }

  attemptEnd(call: Call, _route: RouteInfo): void {
    const clock = call.clock;
    if (clock === undefined) return;
    const ms = performance.now() - clock.attemptAt;
    clock.lastAttemptMs = ms;
    clock.upstreamMs += ms;
    clock.inAttempt = false;
  }
}
