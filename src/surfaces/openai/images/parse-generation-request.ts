/** An OpenAI `/v1/images/generations` JSON body → the canonical generate request. */
import type { ImageGenerateRequest } from '../../../core/image.js';
import { requireObject } from '../../../core/validate.js';
import { parseImageFields } from './parse-image-fields.js';

export function parseOpenAIGenerationRequest(body: unknown): ImageGenerateRequest {
  return parseImageFields(requireObject(body, 'body'), 'generate');
}
