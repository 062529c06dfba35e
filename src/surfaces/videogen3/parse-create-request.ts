/**
 * `POST /videogen3/generate` (a Luma Dream Machine generation) → the canonical `video.generate`
 * request: `prompt` (required), `model` (default `videogen3-ray-2`), `aspect_ratio`,
 * `resolution`, `duration` as Luma writes it (`"5s"`), `loop`, `keyframes` (`frame0` the first
 * frame, `frame1` the last, each `{type: "image", url}`) and the client's `callback_url`.
 * Keyframe images are loaded last, once every other check has passed.
 */
import { describeValue } from '../../core/describe-value.js';
import { invalidRequest } from '../../core/errors.js';
import type { TaskRequest, VideoImageRole } from '../../core/task.js';
import { type Json, oneOf, optionalBoolean, requireObject, requireString } from '../../core/validate.js';
import { loadVideoImage } from '../shared/load-video-image.js';
import {
  checkVideoSeconds,
  DEFAULT_VIDEO_SECONDS,
  optionalChoice,
  parseCallbackUrl,
  parseVideoModel,
  parseVideoPrompt,
  requireBody,
} from '../shared/parse-video-fields.js';
import type { TaskParser } from '../shared/task-family.js';

const VIDEOGEN3_DEFAULT_MODEL = 'videogen3-ray-2';
const VIDEOGEN3_ASPECT_RATIOS = ['1:1', '16:9', '9:16', '4:3', '3:4', '21:9', '9:21'] as const;
const VIDEOGEN3_RESOLUTIONS = ['540p', '720p', '1080p', '4k'] as const;
const DURATION = /^(\d{1,2})s$/;
const FRAMES: ReadonlyArray<[string, VideoImageRole]> = [
  ['frame0', 'first_frame'],
  ['frame1', 'last_frame'],
];

export const parseVideogen3Create: TaskParser = async (body, services, signal) => {
  const fields = requireBody(body);
  const request: TaskRequest = {
    model: parseVideoModel(fields.model, 'model', VIDEOGEN3_DEFAULT_MODEL),
    prompt: parseVideoPrompt(fields.prompt, 'prompt'),
    seconds: parseDuration(fields.duration),
  };
  const aspectRatio = optionalChoice(fields.aspect_ratio, 'aspect_ratio', VIDEOGEN3_ASPECT_RATIOS);
  const resolution = optionalChoice(fields.resolution, 'resolution', VIDEOGEN3_RESOLUTIONS);
  const loop = optionalBoolean(fields.loop, 'loop');
  if (aspectRatio !== undefined) request.aspectRatio = aspectRatio;
  if (resolution !== undefined) request.resolution = resolution;
  if (loop !== undefined) request.options = { loop };
  const keyframes = parseKeyframes(fields.keyframes);
  const callback = parseCallbackUrl(fields.callback_url, 'callback_url', (url, param) => services.tasks.checkCallbackUrl(url, param));
  if (keyframes.length > 0) {
    request.images = [];
    for (const frame of keyframes) request.images.push(await loadVideoImage(services, frame.url, `${frame.param}.url`, signal));
    request.imageRoles = keyframes.map((frame) => frame.role);
  }
  return callback ? { request, callback } : { request };
};

/** `"5s"` → 5, within the gateway's bounds; absent → the default. */
function parseDuration(value: unknown): number {
  if (value === undefined || value === null) return DEFAULT_VIDEO_SECONDS;
  const match = typeof value === 'string' ? DURATION.exec(value) : null;
  if (!match) throw invalidRequest(`duration: expected seconds written like "5s", got ${describeValue(value)}`, 'duration');
  return checkVideoSeconds(Number(match[1]), 'duration');
}

interface Keyframe {
  param: string;
  role: VideoImageRole;
  url: string;
}

/** Image keyframes only: a `generation` keyframe (extending an earlier video) is not offered. */
function parseKeyframes(value: unknown): Keyframe[] {
  if (value === undefined || value === null) return [];
  const keyframes: Json = requireObject(value, 'keyframes');
  const unknown = Object.keys(keyframes).find((name) => !FRAMES.some(([frame]) => frame === name));
  if (unknown !== undefined) throw invalidRequest(`keyframes: only frame0 and frame1 are accepted, got ${describeValue(unknown)}`, 'keyframes');
  const frames: Keyframe[] = [];
  for (const [name, role] of FRAMES) {
    if (keyframes[name] === undefined || keyframes[name] === null) continue;
    const param = `keyframes.${name}`;
    const frame = requireObject(keyframes[name], param);
    const type = oneOf(frame.type, `${param}.type`, ['image', 'generation'] as const);
    if (type === 'generation') throw invalidRequest(`${param}.type: extending a generation is not offered; give an image`, `${param}.type`);
    frames.push({ param, role, url: requireString(frame.url, `${param}.url`) });
  }
  return frames;
}
