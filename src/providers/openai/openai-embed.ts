/**
 * The embed operation over the OpenAI dialect: `POST {baseUrl}/embeddings`, asking for floats
 * (some compatible servers know no other encoding). At most 2048 inputs per call, or the
 * channel option `embedBatchSize` (local servers often take fewer).
 */
import type { EmbedRequest, EmbedResponse } from '../../core/embed.js';
import { OPENAI_MAX_EMBEDDING_INPUTS, type OpenAIEmbeddingsResponse } from '../../core/wire/openai-embeddings-types.js';
import { readErrorText, readJson, sendUpstream } from '../shared/upstream-http.js';
import type { Attempt, ChannelConfig, EmbedProvider } from '../types.js';
import { fromOpenAIEmbeddingsResponse } from './from-openai-embeddings-response.js';
import { mapOpenAIError } from './map-openai-error.js';
import { openAIHeaders } from './openai-upstream.js';
import { toOpenAIEmbeddingsRequest } from './to-openai-embeddings-request.js';
import { loadTokenizer } from '../../core/tokenizer.js';

function embeddingsUrl(channel: ChannelConfig): string {
  return `${channel.baseUrl.replace(/\/+$/, '')}/embeddings`;
}

function openAIEmbedBatchSize(channel: ChannelConfig): number {
  const configured = channel.options.embedBatchSize;
  return typeof configured === 'number' && Number.isInteger(configured) && configured > 0 ? configured : OPENAI_MAX_EMBEDDING_INPUTS;
}

export function createOpenAIEmbed(): EmbedProvider {
  return {
    maxBatchSize: openAIEmbedBatchSize,
    async embed(request: EmbedRequest, attempt: Attempt): Promise<EmbedResponse> {
      await loadTokenizer();
      const { channel } = attempt;
      const response = await sendUpstream({
        url: embeddingsUrl(channel),
        headers: openAIHeaders(channel),
        body: JSON.stringify(toOpenAIEmbeddingsRequest(request, attempt.upstreamModel)),
        signal: attempt.signal,
        timeoutMs: channel.timeoutMs,
      });
      if (response.status < 200 || response.status >= 300) {
        throw mapOpenAIError(response.status, await readErrorText(response.body), response.headers);
      }
      return fromOpenAIEmbeddingsResponse(await readJson<OpenAIEmbeddingsResponse>(response.body), request);
    },
  };
}
