/** Delivered images → OpenAI's images answer `{created, data:[{url | b64_json, revised_prompt?}]}`. */
import type { DeliveredImages } from '../../../core/image.js';
import type { OpenAIImageData, OpenAIImagesResponse } from '../../../core/wire/openai-images-types.js';

export function renderOpenAIImagesResponse(result: DeliveredImages): OpenAIImagesResponse {
  return {
    created: result.created,
    data: result.images.map((image) => {
      const item: OpenAIImageData = {};
      if (image.url !== undefined) item.url = image.url;
      if (image.b64Json !== undefined) item.b64_json = image.b64Json;
      if (image.revisedPrompt !== undefined) item.revised_prompt = image.revisedPrompt;
      return item;
    }),
  };
}
