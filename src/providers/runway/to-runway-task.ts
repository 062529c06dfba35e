/**
 * A canonical `video.generate` request → Runway's route and body: `POST /v1/image_to_video` with a
 * first-frame image, else `POST /v1/text_to_video` (for models that have it). Refused naming the
 * canonical field: sizes the model has no `ratio` for, durations out of its range, images other
 * than one first frame, and text-to-video on a model that needs an image.
 */
import { GatewayError } from '../../core/errors.js';
import type { ImageInput } from '../../core/image.js';
import type { TaskRequest } from '../../core/task.js';
import { type RunwayModel, runwayModel, UNLISTED_RATIOS } from './runway-models.js';

const DEFAULT_SECONDS = 5;
const DEFAULT_ASPECT_RATIO = '16:9';
/** Runway counts UTF-16 code units, as JavaScript's `length` does. */
const MAX_RUNWAY_PROMPT_CHARS = 1_000;
/** Runway refuses data URIs of 5 MiB or more. */
const MAX_RUNWAY_DATA_URI_CHARS = 5 * 1024 * 1024 - 1;
const DATA_URI_TYPES = ['image/jpeg', 'image/png', 'image/webp'];
const MAX_URL_CHARS = 2_048;
const MAX_SEED = 4_294_967_295;

interface RunwayTaskCreate {
  path: '/v1/image_to_video' | '/v1/text_to_video';
  body: Record<string, unknown>;
}

export function toRunwayTask(request: TaskRequest, upstreamModel: string): RunwayTaskCreate {
  const model = runwayModel(upstreamModel);
  const image = firstFrame(request);
  const promptText = request.prompt?.trim() ?? '';
  if (promptText.length > MAX_RUNWAY_PROMPT_CHARS) {
    throw new GatewayError('invalid_request', `Runway takes prompts of up to ${MAX_RUNWAY_PROMPT_CHARS} characters.`, { param: 'prompt' });
  }
  if (promptText === '' && (image === undefined || model?.needsPromptText)) {
    throw new GatewayError('invalid_request', `Runway ${upstreamModel} needs a prompt.`, { param: 'prompt' });
  }
  if (image === undefined && model && !model.textToVideo) {
    throw new GatewayError('invalid_request', `Runway ${upstreamModel} makes videos from an image only: give a first-frame image.`, { param: 'images' });
  }
  const body: Record<string, unknown> = { model: upstreamModel };
  if (image !== undefined) body.promptImage = promptImage(image);
  if (promptText !== '') body.promptText = promptText;
  body.ratio = runwayRatio(request, upstreamModel, model, image !== undefined);
  body.duration = runwayDuration(request.seconds, upstreamModel, model);
  if (request.seed !== undefined) {
    if (!Number.isInteger(request.seed) || request.seed < 0 || request.seed > MAX_SEED) {
      throw new GatewayError('invalid_request', `Runway takes seeds from 0 to ${MAX_SEED}.`, { param: 'seed' });
    }
    body.seed = request.seed;
  }
  return { path: image === undefined ? '/v1/text_to_video' : '/v1/image_to_video', body };
}

/** The one image Gen-4 models take: a first frame. */
function firstFrame(request: TaskRequest): ImageInput | undefined {
  const images = request.images ?? [];
  if (images.length === 0) return undefined;
  if (images.length > 1) throw new GatewayError('invalid_request', 'Runway takes one image: the first frame.', { param: 'images' });
  const role = request.imageRoles?.[0] ?? 'first_frame';
  if (role !== 'first_frame') {
    throw new GatewayError('invalid_request', `Runway takes the image as the first frame only, not as a ${role.replace('_', ' ')}.`, { param: 'images' });
  }
  return images[0];
}

/** A data URI when it fits Runway's limit (Runway need not fetch anything), else the https URL the client gave. */
function promptImage(image: ImageInput): string {
  if (DATA_URI_TYPES.includes(image.mediaType)) {
    const prefix = `data:${image.mediaType};base64,`;
    if (prefix.length + Math.ceil(image.data.byteLength / 3) * 4 <= MAX_RUNWAY_DATA_URI_CHARS) {
      return `${prefix}${Buffer.from(image.data.buffer, image.data.byteOffset, image.data.byteLength).toString('base64')}`;
    }
  }
  const url = image.sourceUrl;
  if (url !== undefined && url.length <= MAX_URL_CHARS && /^https:\/\//i.test(url)) return url;
  throw new GatewayError(
    'invalid_request',
    'Runway takes a JPEG, PNG or WebP image under about 3.9 MB as data, or a larger one by its https URL: give the image by URL or make it smaller.',
    { param: 'images' },
  );
}

function runwayRatio(request: TaskRequest, upstreamModel: string, model: RunwayModel | undefined, withImage: boolean): string {
  const resolution = (request.resolution ?? '720p').toLowerCase();
  const aspectRatio = request.aspectRatio ?? DEFAULT_ASPECT_RATIO;
  if (model && !model.resolutions.includes(resolution)) {
    throw new GatewayError('invalid_request', `Runway ${upstreamModel} makes ${model.resolutions.join(', ')} videos; got ${describe(request.resolution)}.`, {
      param: 'resolution',
    });
  }
  const ratios = model ? (withImage ? model.imageRatios : model.textRatios) : UNLISTED_RATIOS[resolution];
  if (ratios === undefined) {
    throw new GatewayError('invalid_request', `Runway makes 720p or 1080p videos; got ${describe(request.resolution)}.`, { param: 'resolution' });
  }
  const ratio = Object.hasOwn(ratios, aspectRatio) ? ratios[aspectRatio] : undefined;
  if (ratio === undefined) {
    const route = model ? (withImage ? ' from an image' : ' from text') : ` at ${resolution}`;
    throw new GatewayError(
      'invalid_request',
      `Runway ${upstreamModel} makes videos${route} in aspect ratios ${Object.keys(ratios).join(', ')}; got ${describe(aspectRatio)}.`,
      {
        param: 'aspectRatio',
      },
    );
  }
  return ratio;
}

function runwayDuration(seconds: number | undefined, upstreamModel: string, model: RunwayModel | undefined): number {
  const wanted = seconds ?? DEFAULT_SECONDS;
  const range = model?.seconds ?? { min: 1, max: 60 };
  if (!Number.isInteger(wanted) || wanted < range.min || wanted > range.max) {
    throw new GatewayError('invalid_request', `Runway ${upstreamModel} makes videos of ${range.min} to ${range.max} whole seconds; got ${describe(seconds)}.`, {
      param: 'seconds',
    });
  }
  return wanted;
}

function describe(value: unknown): string {
  return value === undefined ? 'none' : JSON.stringify(value).slice(0, 40);
}
