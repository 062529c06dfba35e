/** Vectors → Gemini's embed answers. Gemini reports no token usage for embeddings. */
import type { GeminiBatchEmbedContentsResponse, GeminiEmbedContentResponse } from '../../core/wire/gemini-embed-types.js';

export function renderGeminiEmbedContentResponse(vector: number[]): GeminiEmbedContentResponse {
  return { embedding: { values: vector } };
}

export function renderGeminiBatchEmbedResponse(vectors: readonly number[][]): GeminiBatchEmbedContentsResponse {
  return { embeddings: vectors.map((values) => ({ values })) };
}
