import type { Operation } from '../core/operation.js';
import type { Usage } from '../core/usage.js';
import { costOf } from '../ledger/pricing.js';
import type { UsageRecorder } from '../ledger/usage-recorder.js';
import type { AuthenticatedKey, RouteInfo } from '../surfaces/types.js';
import type { Catalog } from './catalog.js';

/** Who asked for what, as the ledger records it. */
export interface MeteredCall {
  key: AuthenticatedKey;
  surface: string;
  requestId: string;
  model: string;
  operation: Operation;
  stream: boolean;
}

/**
 * Journals and queues one usage row (written later in a batch); resolves once it is journaled.
 * Simulated answers cost nothing.
 */
export function recordUsage(
  recorder: UsageRecorder,
  catalog: Catalog,
  call: MeteredCall,
  route: RouteInfo,
  startedAt: number,
  outcome: string,
  usage?: Usage,
  units = 0,
): Promise<void> {
  const price = catalog.get(call.model)?.price;
  const cost = route.simulated ? 0 : (usage ? costOf(price, usage) : 0) + units * (price?.perUnit ?? 0);
  return recorder.record({
    request_id: call.requestId,
    key_id: call.key.id,
    surface: call.surface,
    operation: call.operation,
    model: call.model,
    channel: route.channel,
    provider: route.provider,
    upstream_model: route.upstreamModel,
    outcome,
    stream: call.stream ? 1 : 0,
    input_tokens: usage?.inputTokens ?? 0,
    output_tokens: usage?.outputTokens ?? 0,
    cache_read_tokens: usage?.cacheReadTokens ?? 0,
    cache_write_tokens: usage?.cacheWriteTokens ?? 0,
    reasoning_tokens: usage?.reasoningTokens ?? 0,
    units,
    cost_usd: cost,
    latency_ms: Math.round(performance.now() - startedAt),
    created_at: Date.now(),
  });
}

/** The call was admitted: journaled as open until its row is recorded. */
export function beginUsage(recorder: UsageRecorder, call: MeteredCall): void {
  recorder.begin({
    request_id: call.requestId,
    key_id: call.key.id,
    surface: call.surface,
    operation: call.operation,
    model: call.model,
    stream: call.stream,
    created_at: Date.now(),
  });
}
