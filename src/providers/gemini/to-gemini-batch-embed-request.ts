/** The canonical EmbedRequest → a `batchEmbedContents` body: one request per input, each naming the model. */
import type { EmbedRequest } from '../../core/embed.js';
import type { GeminiBatchEmbedContentsRequest, GeminiEmbedContentRequest } from '../../core/wire/gemini-embed-types.js';

export function toGeminiBatchEmbedRequest(request: EmbedRequest, upstreamModel: string): GeminiBatchEmbedContentsRequest {
  const model = upstreamModel.startsWith('models/') ? upstreamModel : `models/${upstreamModel}`;
  return {
    requests: request.inputs.map((text) => {
      const item: GeminiEmbedContentRequest = { model, content: { parts: [{ text }] } };
      if (request.taskType !== undefined) item.taskType = request.taskType;
      // Gemini accepts a title only for documents; other task types would be refused.
      if (request.title !== undefined && request.taskType === 'RETRIEVAL_DOCUMENT') item.title = request.title;
      if (request.dimensions !== undefined) item.outputDimensionality = request.dimensions;
      return item;
    }),
  };
}
