/**
 * Embeddings on Bedrock through `InvokeModel`, in each model family's own body:
 * - Amazon Titan Text Embeddings (`amazon.titan-embed-text-v2:0`, …): one `inputText` per call
 *   (and `dimensions`), answered `{embedding, inputTextTokenCount}`;
 * - Cohere Embed (`cohere.embed-english-v3`, …): `{texts, input_type}`, answered `{embeddings}`
 *   (Cohere reports no token count: the usage is then 0).
 * One input per call (the channel's batch size is 1), which Titan requires.
 */
import type { EmbedRequest, EmbedResponse } from '../../core/embed.js';
import { GatewayError } from '../../core/errors.js';
import { readErrorText, readJson } from '../shared/upstream-http.js';
import type { Attempt, EmbedProvider } from '../types.js';
import { postBedrock } from './bedrock-target.js';
import { mapBedrockError } from './map-bedrock-error.js';

function isCohere(model: string): boolean {
  return /(^|[.:/])cohere\.embed/.test(model);
}

function numbers(value: unknown): value is number[] {
  return Array.isArray(value) && value.length > 0 && value.every((item) => typeof item === 'number');
}

function invalidAnswer(): GatewayError {
  return new GatewayError('upstream', 'bedrock upstream answered an embedding without numeric values', { retryable: true });
}

async function embedOne(input: string, request: EmbedRequest, attempt: Attempt): Promise<{ vector: number[]; tokens: number }> {
  const cohere = isCohere(attempt.upstreamModel);
  const inputType =
    request.taskType === 'RETRIEVAL_QUERY'
      ? 'search_query'
      : request.taskType === 'CLASSIFICATION'
        ? 'classification'
        : request.taskType === 'CLUSTERING'
          ? 'clustering'
          : 'search_document';
  const body = cohere ? { texts: [input], input_type: inputType } : { inputText: input, ...(request.dimensions ? { dimensions: request.dimensions } : {}) };
  if (cohere && request.dimensions) attempt.warn?.('dimensions: not a Cohere Embed v3 setting on Bedrock, dropped');
  const response = await postBedrock(attempt, 'invoke', JSON.stringify(body), 'application/json');
  if (response.status < 200 || response.status >= 300) throw mapBedrockError(response.status, await readErrorText(response.body), response.headers);
  const answer = await readJson<{ embedding?: unknown; inputTextTokenCount?: unknown; embeddings?: unknown }>(response.body);
  if (cohere) {
    const vector = Array.isArray(answer.embeddings) ? answer.embeddings[0] : undefined;
    if (!numbers(vector)) throw invalidAnswer();
    return { vector, tokens: 0 };
  }
  if (!numbers(answer.embedding)) throw invalidAnswer();
  const tokens = Number(answer.inputTextTokenCount);
  return { vector: answer.embedding, tokens: Number.isFinite(tokens) && tokens > 0 ? tokens : 0 };
}

export function createBedrockEmbed(): EmbedProvider {
  return {
    maxBatchSize: () => 1,
    async embed(request: EmbedRequest, attempt: Attempt): Promise<EmbedResponse> {
      const embeddings: number[][] = [];
      let inputTokens = 0;
      for (const input of request.inputs) {
        const { vector, tokens } = await embedOne(input, request, attempt);
        embeddings.push(vector);
        inputTokens += tokens;
      }
      return { model: request.model, embeddings, usage: { inputTokens } };
    },
  };
}
