/**
 * What metrics and the timing headers cost per call, in CPU, measured in-process: the lifecycle
 * hooks (clocks and metrics) and the timing figures of `metrics/timing-headers.ts` run for
 * synthetic calls on the bounded label sets a real gateway sees, without HTTP or upstream. The
 * minimum of several rounds is reported (a loaded host only ever adds time).
 *
 *   node --import tsx bench/metrics-hook-cost.ts [--calls 200000] [--rounds 7]
 *
 * Prints one JSON line: nanoseconds per call for the timing headers alone and for metrics too.
 */
import { parseArgs } from 'node:util';
import type { RouteInfo } from '../src/core/route.js';
import type { Call, CallEnding } from '../src/gateway/call-lifecycle.js';
import { CallClocks } from '../src/metrics/call-clocks.js';
import { milliseconds as ms, serverTiming } from '../src/metrics/timing-headers.js';
import { metricFamilies } from '../src/metrics/metric-names.js';
import { MetricsHooks } from '../src/metrics/metrics-hooks.js';

const { values } = parseArgs({ options: { calls: { type: 'string', default: '200000' }, rounds: { type: 'string', default: '7' } } });
const calls = Number(values.calls);
const rounds = Number(values.rounds);

const MODELS = ['textmodel-b-4o-mini', 'textmodel-b-4o', 'textmodel-a-haiku-4-5-20251001'];
const ROUTES: RouteInfo[] = ['primary', 'backup'].map((channel) => ({
  channel,
  provider: 'openai',
  simulated: false,
  upstreamModel: 'gpt-4o-mini',
  attempts: 1,
  passthrough: true,
}));

function makeCall(i: number): Call {
  return {
    startedAt: performance.now(),
    firstByteAt: undefined,
    route: ROUTES[i & 1],
    clock: undefined,
    subject: {
      surface: 'openai',
      operation: 'chat',
      model: MODELS[i % 3],
      stream: false,
      requestId: `req_abcdefghijkl${i}`,
      // The HTTP request's record, as Fastify builds it (`http/request-record.ts`).
      http: { headers: {}, errorType: undefined, callClock: undefined },
    },
  } as unknown as Call;
}

const ENDING: CallEnding = { outcome: 'ok', usage: { inputTokens: 12, outputTokens: 40 }, units: 0, costNusd: 1234, latencyMs: 3, route: ROUTES[0] };

type Mode = 'baseline' | 'timing' | 'metrics';

function run(mode: Mode): number {
  const withMetrics = mode === 'metrics';
  const clocks = mode === 'baseline' ? undefined : new CallClocks();
  const hooks = withMetrics ? new MetricsHooks(metricFamilies(), { isCatalogModel: (model) => MODELS.includes(model), isChannel: () => true }) : undefined;
  let sink = 0;
  const start = process.cpuUsage();
  for (let i = 0; i < calls; i++) {
    // Calls are made in the loop (and die young), as a gateway's are; the baseline subtracts making them.
    const call = makeCall(i);
    const route = call.route as RouteInfo;
    sink++;
    if (!clocks) continue;
    clocks.attemptStart(call, route);
    hooks?.attemptStart(call, route);
    clocks.attemptEnd(call, route);
    hooks?.attemptEnd(call, route);
    (call as { firstByteAt?: number }).firstByteAt = performance.now();
    hooks?.firstByte(call);
    hooks?.end(call, ENDING);
    // What the onSend hook does: the figures and the two header values.
    const clock = call.subject.http?.callClock;
    const upstream = clock === undefined ? 0 : clock.upstreamSoFar(performance.now());
    const text = serverTiming(ms(Math.max(0, 1 - upstream)), clock, upstream);
    sink += text.length;
  }
  const used = process.cpuUsage(start);
  if (sink === 0) throw new Error('nothing measured');
  return ((used.user + used.system) * 1000) / calls;
}

const best: Record<Mode, number> = { baseline: Number.POSITIVE_INFINITY, timing: Number.POSITIVE_INFINITY, metrics: Number.POSITIVE_INFINITY };
for (let round = 0; round < rounds; round++) {
  for (const mode of ['baseline', 'timing', 'metrics'] as const) best[mode] = Math.min(best[mode], run(mode));
}
console.log(
  JSON.stringify({
    calls,
    rounds,
    nsPerCall: { timingHeaders: Math.round(best.timing - best.baseline), timingHeadersAndMetrics: Math.round(best.metrics - best.baseline) },
  }),
);
