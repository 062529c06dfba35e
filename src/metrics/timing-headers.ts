/**
 * The gateway's own time on every answer: `Server-Timing: gateway;dur=…, upstream;dur=…,
 * ttfb;dur=…` and `x-gengate-overhead-ms`, taken when the answer's headers go out — for a whole
 * answer its total less the time spent waiting on upstreams; for a stream, the same so far (the
 * upstream has accepted it, events follow). `ttfb` is the answering attempt's time until the
 * upstream answered (a stream: accepted). The access log line repeats the overhead.
 */
import type { FastifyInstance } from 'fastify';
import type { Call } from '../gateway/call-lifecycle.js';
import type { CallClocks } from './call-clocks.js';

export const OVERHEAD_HEADER = 'x-gengate-overhead-ms';

interface TimingOptions {
  /** Write the headers (otherwise only `observe` is told). */
  headers: boolean;
  /** The overhead of an answer that made a call, in seconds (the metrics' histogram). */
  observe?(call: Call, seconds: number): void;
}

/** Milliseconds with two decimals, from integers: a fraction's own conversion costs about twice as much. */
export function milliseconds(ms: number): string {
  const hundredths = Math.round(ms * 100);
  const fraction = hundredths % 100;
  return `${(hundredths - fraction) / 100}.${fraction < 10 ? '0' : ''}${fraction}`;
}

export function installTimingHeaders(http: FastifyInstance, clocks: CallClocks, options: TimingOptions): void {
  const { headers, observe } = options;
  http.addHook('onRequest', (request, _reply, done) => {
    clocks.track(request.id);
    done();
  });
  http.addHook('onSend', (request, reply, payload, done) => {
    const clock = clocks.untrack(request.id);
    if (clock) {
      const total = reply.elapsedTime;
      const upstream = clock.upstreamSoFar(performance.now());
      const gateway = total > upstream ? total - upstream : 0;
      if (headers) {
        const gatewayText = gateway.toFixed(2);
        reply.header(
          'server-timing',
          clock.call
            ? `gateway;dur=${gatewayText}, upstream;dur=${upstream.toFixed(2)}, ttfb;dur=${clock.lastAttemptMs.toFixed(2)}`
            : `gateway;dur=${gatewayText}`,
        );
        reply.header(OVERHEAD_HEADER, gatewayText);
      }
      if (observe && clock.call) observe(clock.call, gateway / 1000);
    }
    done(null, payload);
  });
  // An answer that never went out (the client left first): its tracking ends all the same.
  const forget = (request: { id: string }, _reply: unknown, done: () => void): void => {
    clocks.untrack(request.id);
    done();
  };
  http.addHook('onResponse', forget);
  http.addHook('onRequestAbort', (request, done) => {
    clocks.untrack(request.id);
    done();
  });
}
