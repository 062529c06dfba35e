/**
 * The gateway's own time on every answer: `Server-Timing: gateway;dur=…, upstream;dur=…,
 * ttfb;dur=…` and `x-gengate-overhead-ms`, taken when the answer's headers go out — for a whole
 * answer its total less the time spent waiting on upstreams; for a stream, the same so far (the
 * upstream has accepted it, events follow). `ttfb` is the answering attempt's time until the
 * upstream answered (a stream: accepted). The access log line repeats the overhead. The upstream
 * time is the request's clock (`request.callClock`, kept by `call-clocks.ts`): one hook, no lookup.
 */
import type { FastifyInstance } from 'fastify';
import type { CallClock } from '../core/call-clock.js';

export const OVERHEAD_HEADER = 'x-gengate-overhead-ms';

interface TimingOptions {
  /** Write the headers (otherwise only `observe` is told). */
  headers: boolean;
  /** The overhead of an answer that made a call, in seconds (the metrics' histogram). */
  observe?(call: NonNullable<CallClock['call']>, seconds: number): void;
}

/** Milliseconds with two decimals, from integers: a fraction's own conversion costs about twice as much. */
export function milliseconds(ms: number): string {
  const hundredths = Math.round(ms * 100);
  const fraction = hundredths % 100;
  return `${(hundredths - fraction) / 100}.${fraction < 10 ? '0' : ''}${fraction}`;
}

/** The Server-Timing value of an answer: the gateway's share, and with a call its upstream's and the answering attempt's. */
export function serverTiming(gateway: string, clock: CallClock | undefined, upstream: number): string {
  return clock?.call
    ? `gateway;dur=${gateway}, upstream;dur=${milliseconds(upstream)}, ttfb;dur=${milliseconds(clock.lastAttemptMs)}`
    : `gateway;dur=${gateway}`;
}

export function installTimingHeaders(http: FastifyInstance, options: TimingOptions): void {
  const { headers, observe } = options;
  http.addHook('onSend', (request, reply, payload, done) => {
    const clock = request.callClock;
    const total = reply.elapsedTime;
    const upstream = clock === undefined ? 0 : clock.upstreamSoFar(performance.now());
    const gateway = total > upstream ? total - upstream : 0;
    if (headers) {
      const gatewayText = milliseconds(gateway);
      reply.header('server-timing', serverTiming(gatewayText, clock, upstream));
      reply.header(OVERHEAD_HEADER, gatewayText);
    }
    if (observe && clock?.call) observe(clock.call, gateway / 1000);
    done(null, payload);
  });
}
