/**
 * The attempt loop every operation shares: each planned channel is tried in turn until one
 * answers. Failures before the first byte reached the client (connection errors, timeouts,
 * 429, 5xx, refused channel credentials) move on to the next channel and count against its
 * circuit; other errors are the client's at once. Records nothing: the call lifecycle does.
 */
import { GatewayError, toGatewayError } from '../core/errors.js';
import type { RouteInfo } from '../core/route.js';
import { withUpstreamTraceHeaders } from '../observability/upstream-trace-headers.js';
import type { Attempt } from '../providers/types.js';
import type { RuntimeChannel } from './channel-registry.js';
import type { CircuitBreaker } from './circuit-breaker.js';

/** Warnings kept per attempt: enough for every setting a dialect can drop, bounded all the same. */
const MAX_WARNINGS = 32;

export type AttemptFn<T> = (channel: RuntimeChannel, attempt: Attempt, route: RouteInfo) => Promise<T>;

interface AttemptContext {
  breaker: CircuitBreaker;
  model: string;
  requestId: string;
  signal: AbortSignal;
  /** The model's output-token limit from the catalog, passed on to providers. */
  maxOutputTokens?: number;
  /**
   * Told of each route before it is tried (the last one told is the one that answered or failed
   * last); may return headers for the attempt's upstream requests (a trace context).
   */
  onAttempt(route: RouteInfo): Readonly<Record<string, string>> | undefined;
  /** Told when a route's attempt ends: without an error when it answered. */
  onAttemptEnd?(route: RouteInfo, error?: GatewayError): void;
}

function routeFor(channel: RuntimeChannel, model: string, attempts: number): RouteInfo {
  return {
    channel: channel.name,
    provider: channel.config.provider,
    simulated: channel.provider.simulated === true,
    upstreamModel: channel.upstreamModel(model),
    attempts,
    passthrough: false,
  };
}

export async function runAttempts<T>(plan: readonly RuntimeChannel[], context: AttemptContext, attemptFn: AttemptFn<T>): Promise<T> {
  const { breaker } = context;
  let lastError: GatewayError | undefined;
  for (let i = 0; i < plan.length; i++) {
    const channel = plan[i];
    const route = routeFor(channel, context.model, i + 1);
    const traceHeaders = context.onAttempt(route);
    breaker.beginAttempt(channel.name);
    const attempt: Attempt = {
      channel: channel.config,
      upstreamModel: route.upstreamModel,
      signal: context.signal,
      requestId: context.requestId,
      warn: (message) => {
        route.warnings ??= [];
        if (route.warnings.length < MAX_WARNINGS && !route.warnings.includes(message)) route.warnings.push(message);
      },
    };
    if (context.maxOutputTokens !== undefined) attempt.maxOutputTokens = context.maxOutputTokens;
    try {
      const value = await (traceHeaders
        ? withUpstreamTraceHeaders(context.signal, traceHeaders, () => attemptFn(channel, attempt, route))
        : attemptFn(channel, attempt, route));
      breaker.success(channel.name);
      context.onAttemptEnd?.(route);
      return value;
    } catch (error) {
      const gatewayError = toGatewayError(error);
      gatewayError.classifyAsUpstream();
      context.onAttemptEnd?.(route, gatewayError);
      if (context.signal.aborted || !gatewayError.retryable) {
        breaker.inconclusive(channel.name);
        throw gatewayError;
      }
      breaker.failure(channel.name);
      lastError = gatewayError;
    }
  }
  throw lastError ?? new GatewayError('overloaded', 'no channel could serve the request');
}
