/**
 * `POST /v1/videos` → the canonical `video.generate` request: `model` (required: OpenAI's own
 * API defaults to a model the gateway does not serve), `prompt`, `seconds` (OpenAI sends a
 * string such as "8"; any whole number 1–20, as a string or a number), `size` ("1280x720" →
 * aspect ratio and resolution), `input_reference` (the video's first frame) and, as a gateway
 * extension, `callback_url`. Without `seconds` or `size` the model's defaults apply. Other
 * fields are ignored.
 */
import { invalidRequest } from '../../core/errors.js';
import { toImageInput } from '../../core/image-bytes.js';
import type { ImageInput } from '../../core/image.js';
import type { TaskRequest } from '../../core/task.js';
import type { GatewayServices } from '../../gateway/contract.js';
import { loadVideoImage } from '../shared/load-video-image.js';
import { checkVideoSeconds, parseCallbackUrl, parseVideoModel, parseVideoPrompt } from '../shared/parse-video-fields.js';
import { paramTable } from '../shared/rename-canonical-param.js';
import type { ParsedTaskCreate } from '../shared/task-family.js';
import { type CreateParts, REFERENCE_PARAM, type ReferenceSource } from './create-parts.js';
import { parseVideoSize } from './parse-video-size.js';

/** A provider's refusal names the canonical field; the client reads its own. */
export const OPENAI_VIDEO_PARAMS = paramTable({
  aspectRatio: 'size',
  resolution: 'size',
  width: 'size',
  height: 'size',
  images: REFERENCE_PARAM,
  imageRoles: REFERENCE_PARAM,
});

const SECONDS_TEXT = /^\s*\d{1,3}\s*$/;

export async function parseOpenAIVideoCreate(
  parts: CreateParts,
  services: Pick<GatewayServices, 'fetchImage' | 'imageLimits' | 'tasks'>,
  signal: AbortSignal,
): Promise<ParsedTaskCreate> {
  const { fields } = parts;
  const request: TaskRequest = {
    model: parseVideoModel(fields.model, 'model'),
    prompt: parseVideoPrompt(fields.prompt, 'prompt'),
  };
  const seconds = parseSeconds(fields.seconds);
  if (seconds !== undefined) request.seconds = seconds;
  if (fields.size !== undefined && fields.size !== null) {
    const { width, height, aspectRatio, resolution } = parseVideoSize(fields.size, 'size');
    Object.assign(request, { width, height, aspectRatio, resolution });
  }
  const callback = parseCallbackUrl(fields.callback_url, 'callback_url', (url, param) => services.tasks.checkCallbackUrl(url, param));
  // The image last: every cheap check has passed before the gateway fetches or decodes anything.
  if (parts.reference) {
    request.images = [await loadReference(parts.reference, services, signal)];
    request.imageRoles = ['first_frame'];
  }
  return callback ? { request, callback } : { request };
}

function parseSeconds(value: unknown): number | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'string' && SECONDS_TEXT.test(value)) return checkVideoSeconds(Number(value), 'seconds');
  if (typeof value === 'number') return checkVideoSeconds(value, 'seconds');
  throw invalidRequest('seconds: expected a whole number of seconds such as "8"', 'seconds');
}

async function loadReference(
  reference: ReferenceSource,
  services: Pick<GatewayServices, 'fetchImage' | 'imageLimits'>,
  signal: AbortSignal,
): Promise<ImageInput> {
  switch (reference.kind) {
    case 'file':
      return toImageInput(reference.data, REFERENCE_PARAM, { ...services.imageLimits, filename: reference.filename });
    case 'file_id':
      throw invalidRequest(
        `${REFERENCE_PARAM}: file_id is not supported (the gateway has no Files API); upload the image or give its image_url`,
        REFERENCE_PARAM,
      );
    case 'url':
      return loadVideoImage(services, reference.value, REFERENCE_PARAM, signal);
  }
}
