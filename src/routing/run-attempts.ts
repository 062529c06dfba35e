/**
 * The attempt loop every operation shares: the key may use the model, the channels serving
 * (model, operation) are ordered, and each is tried until one answers. Failures before the
 * first byte reached the client (connection errors, timeouts, 429, 5xx, refused channel
 * credentials) move on to the next channel; other errors are the client's at once.
 */
import { GatewayError, toGatewayError } from '../core/errors.js';
import type { UsageRecorder } from '../ledger/usage-recorder.js';
import type { Attempt } from '../providers/types.js';
import type { RouteInfo } from '../surfaces/types.js';
import type { Catalog } from './catalog.js';
import type { ChannelRegistry, RuntimeChannel } from './channel-registry.js';
import type { CircuitBreaker } from './circuit-breaker.js';
import { keyMayUse } from './key-may-use.js';
import { orderAttempts } from './order-attempts.js';
import { beginUsage, recordUsage, type MeteredCall } from './record-usage.js';

export interface RouterDeps {
  registry: ChannelRegistry;
  breaker: CircuitBreaker;
  catalog: Catalog;
  recorder: UsageRecorder;
  maxAttempts: number;
}

export interface RoutedCall extends MeteredCall {
  /** Aborted when the client disconnects. */
  signal: AbortSignal;
}

export function modelNotFound(model: string): GatewayError {
  return new GatewayError('not_found', `The model \`${model}\` does not exist or no channel serves it.`, {
    code: 'model_not_found',
    param: 'model',
  });
}

export type AttemptFn<T> = (channel: RuntimeChannel, attempt: Attempt, route: RouteInfo) => Promise<T>;

/**
 * Runs `attemptFn` on the planned channels until one succeeds. Failed calls are recorded here;
 * a successful one is recorded by the caller, who knows its usage.
 */
export async function runAttempts<T>(deps: RouterDeps, call: RoutedCall, startedAt: number, attemptFn: AttemptFn<T>): Promise<T> {
  if (!keyMayUse(call.key, call.model)) {
    throw new GatewayError('permission', `This API key may not use the model \`${call.model}\`.`, { code: 'model_not_allowed', param: 'model' });
  }
  const candidates = deps.registry.candidates(call.model, call.operation);
  if (candidates.length === 0) throw modelNotFound(call.model);
  const plan = orderAttempts(candidates, deps.maxAttempts, (name) => deps.breaker.isOpen(name));
  beginUsage(deps.recorder, call);
  let lastError: GatewayError | undefined;
  let lastRoute: RouteInfo | undefined;
  for (let i = 0; i < plan.length; i++) {
    const channel = plan[i];
    const route: RouteInfo = {
      channel: channel.name,
      provider: channel.config.provider,
      simulated: channel.provider.simulated === true,
      upstreamModel: channel.upstreamModel(call.model),
      attempts: i + 1,
      passthrough: false,
    };
    lastRoute = route;
    deps.breaker.beginAttempt(channel.name);
    const attempt: Attempt = { channel: channel.config, upstreamModel: route.upstreamModel, signal: call.signal, requestId: call.requestId };
    try {
      const value = await attemptFn(channel, attempt, route);
      deps.breaker.success(channel.name);
      return value;
    } catch (error) {
      const gatewayError = toGatewayError(error);
      if (call.signal.aborted) {
        void recordUsage(deps.recorder, deps.catalog, call, route, startedAt, gatewayError.code === 'client_closed' ? 'client_closed' : gatewayError.kind);
        throw gatewayError;
      }
      if (!gatewayError.retryable) {
        void recordUsage(deps.recorder, deps.catalog, call, route, startedAt, gatewayError.kind);
        throw gatewayError;
      }
      deps.breaker.failure(channel.name);
      lastError = gatewayError;
    }
  }
  const final = lastError ?? new GatewayError('overloaded', 'no channel could serve the request');
  if (lastRoute) void recordUsage(deps.recorder, deps.catalog, call, lastRoute, startedAt, final.kind);
  throw final;
}
