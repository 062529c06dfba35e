/** Image generation and editing over OpenAI's Images API (`/images/generations` JSON, `/images/edits` multipart). */
import type { ImageResult } from '../../../core/image.js';
import type { OpenAIImagesResponse } from '../../../core/wire/openai-images-types.js';
import { readJson } from '../../shared/upstream-http.js';
import type { Attempt, ImageProvider } from '../../types.js';
import type { OpenAIPath } from '../openai-endpoint.js';
import type { OpenAIFlavour } from '../openai-flavour.js';
import { postOpenAI } from '../openai-upstream.js';
import { fromOpenAIImagesResponse } from './from-openai-images-response.js';
import { serializeForm, toOpenAIImageEditForm } from './to-openai-image-edit-form.js';
import { toOpenAIImageGeneration } from './to-openai-image-generation.js';

async function post(
  path: OpenAIPath,
  body: string | Uint8Array,
  contentType: string,
  attempt: Attempt,
  flavour: Pick<OpenAIFlavour, 'endpoint'>,
): Promise<ImageResult> {
  const response = await postOpenAI(path, body, attempt, flavour, contentType);
  return fromOpenAIImagesResponse(await readJson<OpenAIImagesResponse>(response.body));
}

export function createOpenAIImages(flavour: Pick<OpenAIFlavour, 'endpoint'>): ImageProvider {
  return {
    generate(request, attempt) {
      return post('/images/generations', JSON.stringify(toOpenAIImageGeneration(request, attempt.upstreamModel)), 'application/json', attempt, flavour);
    },
    async edit(request, attempt) {
      const { body, contentType } = await serializeForm(toOpenAIImageEditForm(request, attempt.upstreamModel));
      return post('/images/edits', body, contentType, attempt, flavour);
    },
  };
}
