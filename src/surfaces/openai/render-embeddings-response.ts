/** The canonical EmbedResponse → OpenAI's `{object:"list", data, model, usage}`, floats or base64. */
import type { EmbedResponse } from '../../core/embed.js';
import { encodeFloat32Base64 } from '../../core/wire/openai-float32-base64.js';
import type { OpenAIEmbeddingEncoding, OpenAIEmbeddingsResponse } from '../../core/wire/openai-embeddings-types.js';

export function renderOpenAIEmbeddingsResponse(response: EmbedResponse, encoding: OpenAIEmbeddingEncoding): OpenAIEmbeddingsResponse {
  return {
    object: 'list',
    data: response.embeddings.map((vector, index) => ({
      object: 'embedding',
      index,
      embedding: encoding === 'base64' ? encodeFloat32Base64(vector) : vector,
    })),
    model: response.model,
    usage: { prompt_tokens: response.usage.inputTokens, total_tokens: response.usage.inputTokens },
  };
}
