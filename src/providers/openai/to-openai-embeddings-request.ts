/** The canonical EmbedRequest → an OpenAI embeddings body, asking for floats. */
import type { EmbedRequest } from '../../core/embed.js';
import type { OpenAIEmbeddingsRequest } from '../../core/wire/openai-embeddings-types.js';

export function toOpenAIEmbeddingsRequest(request: EmbedRequest, upstreamModel: string): OpenAIEmbeddingsRequest {
  const body: OpenAIEmbeddingsRequest = { model: upstreamModel, input: request.inputs, encoding_format: 'float' };
  if (request.dimensions !== undefined) body.dimensions = request.dimensions;
  if (request.user !== undefined) body.user = request.user;
  return body;
}
