/**
 * The lifecycle hooks that count calls. Every label value is bounded (`bounded-labels.ts`), and
 * the series a call touches are resolved once per (surface, operation, model, channel) and kept:
 * a call's end costs a few map lookups and field increments, no label hashing.
 */
import type { ErrorType } from '../core/error-type.js';
import type { RouteInfo } from '../core/route.js';
import type { Call, CallEnding, LifecycleHooks } from '../gateway/call-lifecycle.js';
import { BoundedLabel, genAiOperationName, genAiProviderName } from './bounded-labels.js';
import { type CounterSeries, getOrMake, type HistogramSeries, type Labels } from './fast-metrics.js';
import type { MetricFamilies } from './metric-names.js';

const NONE = 'none';
const MAX_MODELS = 1_000;
const MAX_CHANNELS = 500;

/** What the hooks need to know to bound labels: the catalog's model ids and the configured channels. */
export interface LabelSources {
  isCatalogModel(model: string): boolean;
  isChannel(channel: string): boolean;
}

/** The series of one (surface, operation, model, channel, provider, response model). */
class CallSeries {
  readonly ok: CounterSeries;
  readonly okDuration: HistogramSeries;
  readonly inputTokens: HistogramSeries;
  readonly outputTokens: HistogramSeries;
  readonly ttft: HistogramSeries;
  readonly cost: CounterSeries;
  readonly unpriced: CounterSeries;
  private readonly failed = new Map<string, { requests: CounterSeries; duration: HistogramSeries }>();

  constructor(
    private readonly families: MetricFamilies,
    private readonly own: Labels,
    private readonly genAi: Labels,
    readonly provider: string,
    readonly responseModel: string,
  ) {
    this.ok = families.requests.series({ ...own, status_class: '2xx' });
    this.okDuration = families.operationDuration.series(genAi);
    this.inputTokens = families.tokenUsage.series({ ...genAi, gen_ai_token_type: 'input' });
    this.outputTokens = families.tokenUsage.series({ ...genAi, gen_ai_token_type: 'output' });
    this.ttft = families.timeToFirstToken.series(genAi);
    this.cost = families.cost.series({ model: own.model, channel: own.channel });
    this.unpriced = families.unpriced.series({ model: own.model, channel: own.channel });
  }

  failure(statusClass: string, errorType: ErrorType): { requests: CounterSeries; duration: HistogramSeries } {
    const key = statusClass + errorType;
    let series = this.failed.get(key);
    if (!series) {
      series = {
        requests: this.families.requests.series({ ...this.own, status_class: statusClass, error_type: errorType }),
        duration: this.families.operationDuration.series({ ...this.genAi, error_type: errorType }),
      };
      this.failed.set(key, series);
    }
    return series;
  }
}

interface ChannelSeries {
  provider: string;
  ttfb: HistogramSeries;
  ok: HistogramSeries;
  failed: HistogramSeries;
  failover: CounterSeries;
  failures: Map<ErrorType, CounterSeries>;
}

export class MetricsHooks implements LifecycleHooks {
  /** Streams whose headers went out and that have not ended. */
  streamsOpen = 0;
  private readonly models: BoundedLabel;
  private readonly channels: BoundedLabel;
  private readonly responseModels = new BoundedLabel(() => true, MAX_MODELS);
  /** surface → operation → model label → channel label → series. */
  private readonly calls = new Map<string, Map<string, Map<string, Map<string, CallSeries>>>>();
  private readonly byChannel = new Map<string, ChannelSeries>();
  private readonly refusedBy: Record<'policy.rate_limited' | 'policy.budget', CounterSeries>;

  constructor(
    private readonly families: MetricFamilies,
    sources: LabelSources,
  ) {
    this.models = new BoundedLabel((model) => sources.isCatalogModel(model), MAX_MODELS);
    this.channels = new BoundedLabel((channel) => sources.isChannel(channel), MAX_CHANNELS);
    this.refusedBy = {
      'policy.rate_limited': families.refusals.series({ reason: 'rate_limited' }),
      'policy.budget': families.refusals.series({ reason: 'budget' }),
    };
  }

  attemptStart(_call: Call, route: RouteInfo): void {
    if (route.attempts > 1) this.channelSeries(route).failover.inc();
  }

  attemptEnd(call: Call, route: RouteInfo, error?: { errorType: ErrorType }): void {
    const clock = call.clock;
    if (!clock) return;
    const series = this.channelSeries(route);
    const seconds = clock.lastAttemptMs / 1000;
    if (error) {
      series.failed.observe(seconds);
      let failures = series.failures.get(error.errorType);
      if (!failures) {
        failures = this.families.attemptFailures.series({ channel: this.channels.of(route.channel), error_type: error.errorType });
        series.failures.set(error.errorType, failures);
      }
      failures.inc();
      return;
    }
    series.ttfb.observe(seconds);
    // A whole answer's attempt is the upstream's whole answer; a stream's is measured at its end.
    if (!call.subject.stream) series.ok.observe(seconds);
  }

  firstByte(call: Call): void {
    if (call.subject.stream) this.streamsOpen++;
  }

  firstToken(call: Call): void {
    if (call.firstTokenAt === undefined) return;
    this.callSeries(call, call.route).ttft.observe((call.firstTokenAt - call.startedAt) / 1000);
  }

  end(call: Call, ending: CallEnding): void {
    const { route } = ending;
    const series = this.callSeries(call, route);
    const seconds = ending.latencyMs / 1000;
    const { stream } = call.subject;
    if (stream && call.firstByteAt !== undefined) {
      this.streamsOpen--;
      const clock = call.clock;
      if (route && clock) this.channelSeries(route).ok.observe((performance.now() - clock.attemptAt) / 1000);
    }
    const errorType = ending.errorType;
    if (errorType === undefined) {
      series.ok.inc();
      series.okDuration.observe(seconds);
    } else {
      const failure = series.failure(statusClassOf(ending), errorType);
      failure.requests.inc();
      failure.duration.observe(seconds);
      if (errorType === 'policy.rate_limited' || errorType === 'policy.budget') this.refusedBy[errorType].inc();
    }
    const usage = ending.usage;
    if (usage) {
      if (usage.inputTokens > 0) series.inputTokens.observe(usage.inputTokens);
      if (usage.outputTokens > 0) series.outputTokens.observe(usage.outputTokens);
    }
    if (ending.costNusd > 0) series.cost.inc(ending.costNusd);
    else if (ending.unpriced === true) series.unpriced.inc(1);
  }

  private callSeries(call: Call, route: RouteInfo | undefined): CallSeries {
    const { surface, operation, model } = call.subject;
    const modelLabel = this.models.of(model);
    const channelLabel = route ? this.channels.of(route.channel) : NONE;
    const byOperation = getOrMake(this.calls, surface, () => new Map<string, Map<string, Map<string, CallSeries>>>());
    const byModel = getOrMake(byOperation, operation, () => new Map<string, Map<string, CallSeries>>());
    const byChannel = getOrMake(byModel, modelLabel, () => new Map<string, CallSeries>());
    const provider = route ? route.provider : NONE;
    const responseModel = route ? (modelLabel === 'other' ? 'other' : this.responseModels.of(route.upstreamModel)) : NONE;
    let series = byChannel.get(channelLabel);
    // A channel renamed to another provider, or rewritten to another upstream model: a new series.
    if (!series || series.provider !== provider || series.responseModel !== responseModel) {
      series = new CallSeries(
        this.families,
        { surface, operation, model: modelLabel, channel: channelLabel },
        {
          gen_ai_operation_name: genAiOperationName(operation),
          gen_ai_provider_name: genAiProviderName(provider),
          gen_ai_request_model: modelLabel,
          gen_ai_response_model: responseModel,
        },
        provider,
        responseModel,
      );
      byChannel.set(channelLabel, series);
    }
    return series;
  }

  private channelSeries(route: RouteInfo): ChannelSeries {
    const channel = this.channels.of(route.channel);
    let series = this.byChannel.get(channel);
    if (!series || series.provider !== route.provider) {
      const labels = { channel, provider: route.provider };
      series = {
        provider: route.provider,
        ttfb: this.families.upstreamTimeToFirstByte.series(labels),
        ok: this.families.upstreamDuration.series({ ...labels, outcome: 'ok' }),
        failed: this.families.upstreamDuration.series({ ...labels, outcome: 'error' }),
        failover: this.families.failovers.series({ channel }),
        failures: new Map(),
      };
      this.byChannel.set(channel, series);
    }
    return series;
  }
}

/** The answer's status class: the error's status, `4xx` for a client that left (nginx's 499). */
function statusClassOf(ending: CallEnding): string {
  const status = ending.error?.status;
  if (ending.outcome === 'client_closed' || status === undefined) return ending.errorType === 'client.closed' ? '4xx' : '5xx';
  return status >= 500 ? '5xx' : status >= 400 ? '4xx' : '2xx';
}
