/**
 * Embeddings on Bedrock through `InvokeModel`, in each model family's own body:
 * - Amazon Titan Text Embeddings (`amazon.titan-embed-text-v2:0`, …): one `inputText` per call
 *   (and `dimensions`), answered `{embedding, inputTextTokenCount}`;
 * - Cohere Embed v3 and v4 (cohere-embed-wire.ts): `{texts, input_type, embedding_types}`,
 *   answered `{embeddings}` without a token count.
 * One input per call (the channel's batch size is 1, which Titan requires; the batch size is the
 * channel's, not the model's). Usage: Titan's `inputTextTokenCount`, else the
 * `X-Amzn-Bedrock-Input-Token-Count` header Bedrock puts on every InvokeModel answer, else (a
 * proxy that dropped it) an o200k_base estimate of the texts.
 */
import type { EmbedRequest, EmbedResponse } from '../../core/embed.js';
import { GatewayError } from '../../core/errors.js';
import { loadTokenizer } from '../../core/tokenizer.js';
import { estimateTextTokens } from '../shared/estimate-text-tokens.js';
import { headerValue, readErrorText, readJson, type UpstreamResponse } from '../shared/upstream-http.js';
import type { Attempt, EmbedProvider } from '../types.js';
import { postBedrock } from './bedrock-target.js';
import { cohereEmbedBody, cohereVectors, isCohereEmbed } from './cohere-embed-wire.js';
import { mapBedrockError } from './map-bedrock-error.js';

function numbers(value: unknown): value is number[] {
  return Array.isArray(value) && value.length > 0 && value.every((item) => typeof item === 'number');
}

function positiveCount(value: unknown): number | undefined {
  const count = typeof value === 'string' && /^\d{1,9}$/.test(value.trim()) ? Number(value) : typeof value === 'number' ? value : Number.NaN;
  return Number.isInteger(count) && count > 0 ? count : undefined;
}

/** Bedrock's own count of the input tokens, from the answer's header. */
function headerTokens(headers: UpstreamResponse['headers']): number | undefined {
  return positiveCount(headerValue(headers, 'x-amzn-bedrock-input-token-count'));
}

async function estimated(texts: string[]): Promise<number> {
  await loadTokenizer();
  return estimateTextTokens(texts);
}

async function invoke(attempt: Attempt, body: Record<string, unknown>): Promise<{ answer: unknown; headers: UpstreamResponse['headers'] }> {
  const response = await postBedrock(attempt, 'invoke', JSON.stringify(body), 'application/json');
  if (response.status < 200 || response.status >= 300) throw mapBedrockError(response.status, await readErrorText(response.body), response.headers);
  return { answer: await readJson<unknown>(response.body), headers: response.headers };
}

async function embedOne(input: string, request: EmbedRequest, attempt: Attempt): Promise<{ vector: number[]; tokens: number }> {
  const warn = (message: string): void => attempt.warn?.(message);
  if (isCohereEmbed(attempt.upstreamModel)) {
    const { answer, headers } = await invoke(attempt, cohereEmbedBody([input], request, attempt.upstreamModel, warn));
    const [vector] = cohereVectors(answer, 1);
    return { vector, tokens: headerTokens(headers) ?? (await estimated([input])) };
  }
  const { answer, headers } = await invoke(attempt, { inputText: input, ...(request.dimensions ? { dimensions: request.dimensions } : {}) });
  const titan = answer as { embedding?: unknown; inputTextTokenCount?: unknown } | null;
  if (!numbers(titan?.embedding)) {
    throw new GatewayError('upstream', 'bedrock upstream answered an embedding without numeric values', { retryable: true });
  }
  return { vector: titan.embedding, tokens: positiveCount(titan.inputTextTokenCount) ?? headerTokens(headers) ?? (await estimated([input])) };
}

export function createBedrockEmbed(): EmbedProvider {
  return {
    maxBatchSize: () => 1,
    async embed(request: EmbedRequest, attempt: Attempt): Promise<EmbedResponse> {
      const embeddings: number[][] = [];
      let inputTokens = 0;
      // At most maxBatchSize (1) inputs reach here.
      for (const input of request.inputs) {
        const { vector, tokens } = await embedOne(input, request, attempt);
        embeddings.push(vector);
        inputTokens += tokens;
      }
      return { model: request.model, embeddings, usage: { inputTokens } };
    },
  };
}
