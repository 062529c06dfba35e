/** Image generation and editing over OpenAI's Images API (`/images/generations` JSON, `/images/edits` multipart). */
import type { ImageResult } from '../../../core/image.js';
import type { OpenAIImagesResponse } from '../../../core/wire/openai-images-types.js';
import { readErrorText, readJson, sendUpstream } from '../../shared/upstream-http.js';
import type { Attempt, ImageProvider } from '../../types.js';
import { mapOpenAIError } from '../map-openai-error.js';
import { openAIHeaders } from '../openai-upstream.js';
import { fromOpenAIImagesResponse } from './from-openai-images-response.js';
import { serializeForm, toOpenAIImageEditForm } from './to-openai-image-edit-form.js';
import { toOpenAIImageGeneration } from './to-openai-image-generation.js';

async function post(path: string, body: string | Uint8Array, contentType: string, attempt: Attempt): Promise<ImageResult> {
  const { channel } = attempt;
  const response = await sendUpstream({
    url: `${channel.baseUrl.replace(/\/+$/, '')}${path}`,
    headers: { ...openAIHeaders(channel), 'content-type': contentType },
    body,
    signal: attempt.signal,
    timeoutMs: channel.timeoutMs,
  });
  if (response.status < 200 || response.status >= 300) {
    throw mapOpenAIError(response.status, await readErrorText(response.body), response.headers);
  }
  return fromOpenAIImagesResponse(await readJson<OpenAIImagesResponse>(response.body));
}

export function createOpenAIImages(): ImageProvider {
  return {
    generate(request, attempt) {
      return post('/images/generations', JSON.stringify(toOpenAIImageGeneration(request, attempt.upstreamModel)), 'application/json', attempt);
    },
    async edit(request, attempt) {
      const { body, contentType } = await serializeForm(toOpenAIImageEditForm(request, attempt.upstreamModel));
      return post('/images/edits', body, contentType, attempt);
    },
  };
}
