/**
 * Runs one embed call through the shared attempt loop. Inputs beyond what the chosen upstream
 * takes in one call are split into batches (a few in flight at once) and reassembled in order;
 * a failing batch fails the whole attempt, so every vector comes from the same channel.
 */
import type { EmbedRequest, EmbedResponse } from '../core/embed.js';
import { countTextsTokens } from '../core/tokenizer.js';
import { withFields } from '../core/with-fields.js';
import type { Attempt, EmbedProvider } from '../providers/types.js';
import { type CallLifecycle, modelNotFound } from './call-lifecycle.js';
import type { EmbedCall, EmbedOutcome } from './contract.js';

const BATCHES_IN_FLIGHT = 4;

export class EmbedService {
  constructor(private readonly lifecycle: CallLifecycle) {}

  async embed(embedCall: EmbedCall): Promise<EmbedOutcome> {
    // Embeddings produce no output tokens: their size is their input.
    const estimate = { inputTokens: () => countTextsTokens(embedCall.request.inputs), outputCap: () => 0 };
    const call = await this.lifecycle.admit(withFields(embedCall, { model: embedCall.request.model, operation: 'embed' as const, stream: false, estimate }));
    const outcome = await call.attempt(async (channel, attempt, route): Promise<EmbedOutcome> => {
      const embed = channel.provider.embed;
      if (!embed) throw modelNotFound(embedCall.request.model);
      const response = await embedInBatches(embed, embedCall.request, attempt, Math.max(1, embed.maxBatchSize(attempt.channel)));
      return { response: withFields(response, { model: embedCall.request.model }), route };
    });
    await call.settle({ inputTokens: outcome.response.usage.inputTokens, outputTokens: 0 });
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
