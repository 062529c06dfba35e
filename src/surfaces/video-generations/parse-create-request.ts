/**
 * `POST /v1/video/generations` (Ark's content generation task) → the canonical
 * `video.generate` request: `model`, `content` (the prompt with its flags and the reference
 * images with their roles) and the client's `callback_url`. Images are loaded last, once every
 * other check has passed: URLs through the gateway's guarded fetch, `data:` URLs decoded.
 */
import type { TaskRequest } from '../../core/task.js';
import { loadVideoImage } from '../shared/load-video-image.js';
import { DEFAULT_VIDEO_SECONDS, parseCallbackUrl, parseVideoModel, requireBody } from '../shared/parse-video-fields.js';
import type { ParamNames } from '../shared/rename-canonical-param.js';
import type { ParsedTaskCreate, TaskParser } from '../shared/task-family.js';
import { type ParsedContent, parseContent } from './parse-content.js';

export const parseVideoGenerationsCreate: TaskParser = async (body, services, signal) => {
  const fields = requireBody(body);
  const model = parseVideoModel(fields.model, 'model');
  const content = parseContent(fields.content);
  const callback = parseCallbackUrl(fields.callback_url, 'callback_url', (url, param) => services.tasks.checkCallbackUrl(url, param));
  const flags = content.flags;
  const request: TaskRequest = { model, seconds: flags?.seconds ?? DEFAULT_VIDEO_SECONDS };
  if (flags?.prompt) request.prompt = flags.prompt;
  if (flags?.aspectRatio !== undefined) request.aspectRatio = flags.aspectRatio;
  if (flags?.resolution !== undefined) request.resolution = flags.resolution;
  if (flags?.seed !== undefined) request.seed = flags.seed;
  if (flags?.options !== undefined) request.options = flags.options;
  if (content.images.length > 0) {
    request.images = [];
    for (const image of content.images) request.images.push(await loadVideoImage(services, image.url, `content[${image.index}].image_url.url`, signal));
    request.imageRoles = content.images.map((image) => image.role);
  }
  const result: ParsedTaskCreate = { request, paramNames: paramNamesOf(content) };
  if (callback) result.callback = callback;
  return result;
};

function paramNamesOf(content: ParsedContent): ParamNames {
  const text = content.textIndex === undefined ? 'content' : `content[${content.textIndex}].text`;
  return (canonical) => {
    const indexed = /^(images|imageRoles)\[(\d+)\]$/.exec(canonical);
    if (indexed) {
      const image = content.images[Number(indexed[2])];
      if (!image) return 'content';
      return indexed[1] === 'images' ? `content[${image.index}].image_url` : `content[${image.index}].role`;
    }
    if (canonical === 'images' || canonical === 'imageRoles') return 'content';
    if (['prompt', 'seconds', 'aspectRatio', 'resolution', 'seed'].includes(canonical)) return text;
    return undefined;
  };
}
