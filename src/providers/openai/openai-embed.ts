/**
 * The embed operation over the OpenAI dialect: `POST <base>/embeddings`, asking for floats
 * (some compatible servers know no other encoding). At most 2048 inputs per call, or the
 * channel option `embedBatchSize` (local servers often take fewer).
 */
import type { EmbedRequest, EmbedResponse } from '../../core/embed.js';
import { OPENAI_MAX_EMBEDDING_INPUTS, type OpenAIEmbeddingsResponse } from '../../core/wire/openai-embeddings-types.js';
import { readJson } from '../shared/upstream-http.js';
import type { Attempt, ChannelConfig, EmbedProvider } from '../types.js';
import { fromOpenAIEmbeddingsResponse } from './from-openai-embeddings-response.js';
import type { OpenAIFlavour } from './openai-flavour.js';
import { postOpenAI } from './openai-upstream.js';
import { toOpenAIEmbeddingsRequest } from './to-openai-embeddings-request.js';
import { loadTokenizer } from '../../core/tokenizer.js';

function openAIEmbedBatchSize(channel: ChannelConfig): number {
  const configured = channel.options.embedBatchSize;
  return typeof configured === 'number' && Number.isInteger(configured) && configured > 0 ? configured : OPENAI_MAX_EMBEDDING_INPUTS;
}

export function createOpenAIEmbed(flavour: Pick<OpenAIFlavour, 'endpoint'>): EmbedProvider {
  return {
    maxBatchSize: openAIEmbedBatchSize,
    async embed(request: EmbedRequest, attempt: Attempt): Promise<EmbedResponse> {
      await loadTokenizer();
      const body = JSON.stringify(toOpenAIEmbeddingsRequest(request, attempt.upstreamModel));
      const response = await postOpenAI('/embeddings', body, attempt, flavour);
      return fromOpenAIEmbeddingsResponse(await readJson<OpenAIEmbeddingsResponse>(response.body), request);
    },
  };
}
