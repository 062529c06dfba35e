/**
 * The one builder of usage rows: a call's row (`Call.finish`) and a task's `task:<id>` row (the
 * ledger's settle or release, `reservations.ts`) are both made here from the same facts.
 */
import type { ErrorType } from '../core/error-type.js';
import type { RouteInfo } from '../core/route.js';
import type { Usage } from '../core/usage.js';
import type { UsageRow } from '../store/usage-repository.js';

/** What a usage row says: who asked for what, through which channel, how it ended and what it cost. */
export interface UsageFacts {
  requestId: string;
  keyId: string;
  accountId: string | null;
  surface: string;
  operation: string;
  model: string;
  stream: boolean;
  /** The channel that answered or was tried last; absent: none ('' in the row). */
  route: Pick<RouteInfo, 'channel' | 'provider' | 'upstreamModel'> | undefined;
  /** `ok`, `client_closed`, `interrupted`, a task's `failed` or `canceled`, or the kind of the error. */
  outcome: string;
  usage: Usage | undefined;
  /** Priced units other than tokens (images, seconds of video, tasks). */
  units: number;
  /** What it cost, in nUSD (`core/money.ts`). */
  costNusd: number;
  latencyMs: number;
  createdAt: number;
  /** The limit or budget that refused the call, when one did. */
  refusal?: string;
  /** Whose fault the failure was (`core/error-type.ts`); absent for a success (and a client's cancel). */
  errorType?: ErrorType;
  /** An upstream answered for a model the catalog has no price for: `costNusd` is 0 because nothing is known, not because it was free. */
  unpriced?: boolean;
}

export function usageRow(facts: UsageFacts): UsageRow {
  const { usage, route } = facts;
  return {
    request_id: facts.requestId,
    key_id: facts.keyId,
    surface: facts.surface,
    operation: facts.operation,
    model: facts.model,
    channel: route?.channel ?? '',
    provider: route?.provider ?? '',
    upstream_model: route?.upstreamModel ?? '',
    outcome: facts.outcome,
    stream: facts.stream ? 1 : 0,
    input_tokens: usage?.inputTokens ?? 0,
    output_tokens: usage?.outputTokens ?? 0,
    cache_read_tokens: usage?.cacheReadTokens ?? 0,
    cache_write_tokens: usage?.cacheWriteTokens ?? 0,
    reasoning_tokens: usage?.reasoningTokens ?? 0,
    units: facts.units,
    cost_nusd: facts.costNusd,
    latency_ms: facts.latencyMs,
    created_at: facts.createdAt,
    account_id: facts.accountId,
    refusal: facts.refusal ?? null,
    error_type: facts.errorType ?? null,
    unpriced: facts.unpriced ? 1 : 0,
  };
}
