/**
 * A `batchEmbedContents` answer → the canonical EmbedResponse. Gemini reports no token usage
 * for embeddings, so the count is an estimate (see estimate-text-tokens.ts).
 */
import type { EmbedRequest, EmbedResponse } from '../../core/embed.js';
import { GatewayError } from '../../core/errors.js';
import type { GeminiBatchEmbedContentsResponse } from '../../core/wire/gemini-embed-types.js';
import { estimateTextTokens } from '../shared/estimate-text-tokens.js';

export function fromGeminiBatchEmbedResponse(answer: GeminiBatchEmbedContentsResponse, request: EmbedRequest): EmbedResponse {
  const list = Array.isArray(answer?.embeddings) ? answer.embeddings : [];
  if (list.length !== request.inputs.length) {
    throw new GatewayError('upstream', `gemini upstream answered ${list.length} embeddings for ${request.inputs.length} inputs`, { retryable: false });
  }
  const embeddings = list.map((embedding, i) => {
    if (!Array.isArray(embedding?.values)) throw new GatewayError('upstream', `gemini upstream embedding ${i} has no values`, { retryable: false });
    return embedding.values;
  });
  return { model: request.model, embeddings, usage: { inputTokens: estimateTextTokens(request.inputs) } };
}
