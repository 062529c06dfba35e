/**
 * Runs one embed call through the shared attempt loop. Inputs beyond what the chosen upstream
 * takes in one call are split into batches (a few in flight at once) and reassembled in order;
 * a failing batch fails the whole attempt, so every vector comes from the same channel.
 */
import type { EmbedRequest, EmbedResponse } from '../core/embed.js';
import type { EmbedProvider, Attempt } from '../providers/types.js';
import type { EmbedCall, EmbedOutcome, RouteInfo } from '../surfaces/types.js';
import { recordUsage } from './record-usage.js';
import { modelNotFound, runAttempts, type RouterDeps } from './run-attempts.js';

const BATCHES_IN_FLIGHT = 4;

export class EmbedService {
  constructor(private readonly deps: RouterDeps) {}

  async embed(call: EmbedCall): Promise<EmbedOutcome> {
    const startedAt = performance.now();
    const metered = {
      key: call.key,
      surface: call.surface,
      requestId: call.requestId,
      model: call.request.model,
      operation: 'embed' as const,
      stream: false,
      signal: call.signal,
    };
    const outcome = await runAttempts(this.deps, metered, startedAt, async (channel, attempt, route) => {
      const embed = channel.provider.embed;
      if (!embed) throw modelNotFound(call.request.model);
      const response = await embedInBatches(embed, call.request, attempt, Math.max(1, embed.maxBatchSize(attempt.channel)));
      return { response: { ...response, model: call.request.model }, route } satisfies { response: EmbedResponse; route: RouteInfo };
    });
    await recordUsage(this.deps.recorder, this.deps.catalog, metered, outcome.route, startedAt, 'ok', {
      inputTokens: outcome.response.usage.inputTokens,
      outputTokens: 0,
    });
    return outcome;
  }
}

export async function embedInBatches(embed: EmbedProvider, request: EmbedRequest, attempt: Attempt, batchSize: number): Promise<EmbedResponse> {
  if (request.inputs.length <= batchSize) return embed.embed(request, attempt);
  const batches: string[][] = [];
  for (let i = 0; i < request.inputs.length; i += batchSize) batches.push(request.inputs.slice(i, i + batchSize));
  const results: EmbedResponse[] = new Array(batches.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < batches.length) {
      const index = next++;
      results[index] = await embed.embed({ ...request, inputs: batches[index] }, attempt);
    }
  };
  await Promise.all(Array.from({ length: Math.min(BATCHES_IN_FLIGHT, batches.length) }, worker));
  return {
    model: results[0].model,
    embeddings: results.flatMap((result) => result.embeddings),
    usage: { inputTokens: results.reduce((sum, result) => sum + result.usage.inputTokens, 0) },
  };
}
