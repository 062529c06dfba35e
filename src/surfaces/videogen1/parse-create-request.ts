/**
 * `POST /videogen1/video` → the canonical `video.generate` request: `prompt` (required),
 * `model` (default `videogen1-video-01`), `duration` (whole seconds, default 5), `aspect_ratio`
 * and the client's `callback_url`. Fields the spec does not name are ignored, as the vendor's
 * API does.
 */
import type { TaskRequest } from '../../core/task.js';
import { optionalChoice, parseCallbackUrl, parseVideoModel, parseVideoPrompt, parseVideoSeconds, requireBody } from '../shared/parse-video-fields.js';
import type { ParsedTaskCreate } from '../shared/task-family.js';

const VIDEOGEN1_DEFAULT_MODEL = 'videogen1-video-01';
const VIDEOGEN1_ASPECT_RATIOS = ['16:9', '9:16', '1:1'] as const;

export function parseVideogen1Create(body: unknown, checkCallbackUrl: (url: string, param: string) => void): ParsedTaskCreate {
  const fields = requireBody(body);
  const request: TaskRequest = {
    model: parseVideoModel(fields.model, 'model', VIDEOGEN1_DEFAULT_MODEL),
    prompt: parseVideoPrompt(fields.prompt, 'prompt'),
    seconds: parseVideoSeconds(fields.duration, 'duration'),
  };
  const aspectRatio = optionalChoice(fields.aspect_ratio, 'aspect_ratio', VIDEOGEN1_ASPECT_RATIOS);
  if (aspectRatio !== undefined) request.aspectRatio = aspectRatio;
  const callback = parseCallbackUrl(fields.callback_url, 'callback_url', checkCallbackUrl);
  return callback ? { request, callback } : { request };
}
