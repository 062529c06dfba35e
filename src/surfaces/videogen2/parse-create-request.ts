/**
 * `POST /videogen2/video` → the canonical `video.generate` request: `model` and `prompt`
 * (required), `image_url` (image-to-video: the video's first frame, fetched by the gateway or
 * given as a base64 `data:` URL), `duration` (whole seconds, default 5), `resolution`,
 * `aspect_ratio` (beyond the spec: Ark's ratios) and the client's `callback_url`. Other fields
 * are ignored.
 */
import type { TaskRequest } from '../../core/task.js';
import { loadVideoImage } from '../shared/load-video-image.js';
import { optionalChoice, parseCallbackUrl, parseVideoModel, parseVideoPrompt, parseVideoSeconds, requireBody } from '../shared/parse-video-fields.js';
import type { TaskParser } from '../shared/task-family.js';

const VIDEOGEN2_RESOLUTIONS = ['720p', '1080p'] as const;
const VIDEOGEN2_ASPECT_RATIOS = ['16:9', '4:3', '1:1', '3:4', '9:16', '21:9'] as const;

export const parseVideogen2Create: TaskParser = async (body, services, signal) => {
  const fields = requireBody(body);
  const request: TaskRequest = {
    model: parseVideoModel(fields.model, 'model'),
    prompt: parseVideoPrompt(fields.prompt, 'prompt'),
    seconds: parseVideoSeconds(fields.duration, 'duration'),
  };
  const resolution = optionalChoice(fields.resolution, 'resolution', VIDEOGEN2_RESOLUTIONS);
  const aspectRatio = optionalChoice(fields.aspect_ratio, 'aspect_ratio', VIDEOGEN2_ASPECT_RATIOS);
  if (resolution !== undefined) request.resolution = resolution;
  if (aspectRatio !== undefined) request.aspectRatio = aspectRatio;
  const callback = parseCallbackUrl(fields.callback_url, 'callback_url', (url, param) => services.tasks.checkCallbackUrl(url, param));
  // The image last: every cheap check has passed before the gateway fetches anything.
  if (fields.image_url !== undefined && fields.image_url !== null) {
    request.images = [await loadVideoImage(services, fields.image_url, 'image_url', signal)];
    request.imageRoles = ['first_frame'];
  }
  return callback ? { request, callback } : { request };
};
