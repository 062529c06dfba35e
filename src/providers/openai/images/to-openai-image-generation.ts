/** The canonical generate request → an OpenAI `/images/generations` JSON body. */
import type { ImageGenerateRequest } from '../../../core/image.js';
import { openAIImageOptionFields } from './openai-image-options.js';
import { openAIImageSize, takesResponseFormat } from './openai-image-size.js';

export function toOpenAIImageGeneration(request: ImageGenerateRequest, upstreamModel: string): Record<string, unknown> {
  const body: Record<string, unknown> = { model: upstreamModel, prompt: request.prompt, n: request.n };
  const size = openAIImageSize(request);
  if (size) body.size = size;
  // The gateway stores the bytes itself, so it asks for them rather than for a URL it would fetch.
  if (takesResponseFormat(upstreamModel)) body.response_format = 'b64_json';
  Object.assign(body, openAIImageOptionFields(request.options, 'generate'));
  return body;
}
