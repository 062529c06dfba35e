/**
 * A canonical `video.generate` request → the body of Luma's `POST /generations/video`. What Luma
 * cannot express is refused naming the canonical field: durations other than 5 or 9 s, other
 * resolutions and aspect ratios, a seed, reference images (it takes a first and a last frame)
 * and images the client sent as bytes (Luma fetches keyframes by URL only).
 */
import { GatewayError } from '../../core/errors.js';
import type { ImageInput } from '../../core/image.js';
import type { TaskRequest, VideoImageRole } from '../../core/task.js';

const LUMA_RESOLUTIONS: readonly string[] = ['540p', '720p', '1080p', '4k'];
const LUMA_ASPECT_RATIOS: readonly string[] = ['1:1', '16:9', '9:16', '4:3', '3:4', '21:9', '9:21'];
/** Seconds → Luma's duration words. */
const LUMA_DURATIONS: ReadonlyMap<number, string> = new Map([
  [5, '5s'],
  [9, '9s'],
]);
const DEFAULT_SECONDS = 5;
/** Luma keeps prompts short; longer ones are refused here rather than by a 400 upstream. */
const MAX_LUMA_PROMPT_CHARS = 5_000;
const MAX_URL_CHARS = 2_048;

interface LumaKeyframe {
  type: 'image';
  url: string;
}

interface LumaGenerationBody {
  prompt: string;
  model: string;
  duration: string;
  resolution?: string;
  aspect_ratio?: string;
  keyframes?: { frame0?: LumaKeyframe; frame1?: LumaKeyframe };
  loop?: boolean;
  callback_url?: string;
}

export function toLumaGeneration(request: TaskRequest, upstreamModel: string, callbackUrl?: string): LumaGenerationBody {
  const prompt = request.prompt?.trim() ?? '';
  if (prompt === '') throw new GatewayError('invalid_request', 'Luma video generation needs a prompt.', { param: 'prompt' });
  if (prompt.length > MAX_LUMA_PROMPT_CHARS) {
    throw new GatewayError('invalid_request', `The prompt is longer than the ${MAX_LUMA_PROMPT_CHARS} characters Luma takes.`, { param: 'prompt' });
  }
  if (request.seed !== undefined) throw new GatewayError('invalid_request', 'Luma video generation does not take a seed.', { param: 'seed' });
  const body: LumaGenerationBody = { prompt, model: upstreamModel, duration: lumaDuration(request.seconds) };
  if (request.resolution !== undefined) body.resolution = lumaResolution(request.resolution);
  if (request.aspectRatio !== undefined) {
    if (!LUMA_ASPECT_RATIOS.includes(request.aspectRatio)) {
      throw new GatewayError('invalid_request', `Luma makes videos in aspect ratios ${LUMA_ASPECT_RATIOS.join(', ')}; got ${describe(request.aspectRatio)}.`, {
        param: 'aspectRatio',
      });
    }
    body.aspect_ratio = request.aspectRatio;
  }
  const keyframes = lumaKeyframes(request.images ?? [], request.imageRoles);
  if (keyframes) body.keyframes = keyframes;
  if (typeof request.options?.loop === 'boolean') body.loop = request.options.loop;
  if (callbackUrl) body.callback_url = callbackUrl;
  return body;
}

function lumaDuration(seconds: number | undefined): string {
  const duration = LUMA_DURATIONS.get(seconds ?? DEFAULT_SECONDS);
  if (duration === undefined) throw new GatewayError('invalid_request', `Luma makes 5 or 9 second videos; got ${describe(seconds)}.`, { param: 'seconds' });
  return duration;
}

function lumaResolution(resolution: string): string {
  const wanted = resolution.toLowerCase();
  if (!LUMA_RESOLUTIONS.includes(wanted)) {
    throw new GatewayError('invalid_request', `Luma makes videos at ${LUMA_RESOLUTIONS.join(', ')}; got ${describe(resolution)}.`, { param: 'resolution' });
  }
  return wanted;
}

/** First frame → `frame0`, last frame → `frame1`, each by the URL the client gave it by. */
function lumaKeyframes(images: readonly ImageInput[], roles: readonly VideoImageRole[] | undefined): LumaGenerationBody['keyframes'] {
  if (images.length === 0) return undefined;
  if (images.length > 2) throw new GatewayError('invalid_request', 'Luma takes at most two images: a first and a last frame.', { param: 'images' });
  const keyframes: NonNullable<LumaGenerationBody['keyframes']> = {};
  images.forEach((image, index) => {
    const role = roles?.[index] ?? 'first_frame';
    if (role === 'reference_image') {
      throw new GatewayError('invalid_request', 'Luma takes a first and a last frame, not reference images.', { param: 'images' });
    }
    const slot = role === 'last_frame' ? 'frame1' : 'frame0';
    if (keyframes[slot]) throw new GatewayError('invalid_request', `Luma takes one ${role.replace('_', ' ')}; two were given.`, { param: 'images' });
    keyframes[slot] = { type: 'image', url: imageUrl(image) };
  });
  return keyframes;
}

function imageUrl(image: ImageInput): string {
  const url = image.sourceUrl;
  if (url === undefined || url.length > MAX_URL_CHARS || !/^https?:\/\//i.test(url)) {
    throw new GatewayError(
      'invalid_request',
      'Luma fetches keyframe images by URL only: give the image as an http(s) URL instead of uploaded bytes or a data URL.',
      { param: 'images' },
    );
  }
  return url;
}

function describe(value: unknown): string {
  return value === undefined ? 'none' : JSON.stringify(value).slice(0, 40);
}
