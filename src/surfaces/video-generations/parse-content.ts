/**
 * The `content` list of `POST /v1/video/generations`, as Ark takes it: at most one
 * `{type: "text", text}` (the prompt, with Ark's `--name value` flags) and up to four
 * `{type: "image_url", image_url: {url}, role?}` (`first_frame`, `last_frame`,
 * `reference_image`). A lone image without a role is the first frame; with several, each
 * names its role. Only the shape is checked here; the images are loaded afterwards.
 */
import { invalidRequest } from '../../core/errors.js';
import type { VideoImageRole } from '../../core/task.js';
import { oneOf, requireArray, requireObject, requireString } from '../../core/validate.js';
import { MAX_VIDEO_IMAGES } from '../shared/load-video-image.js';
import { checkPromptText } from '../shared/parse-video-fields.js';
import { parseTextFlags, type TextFlags } from './parse-text-flags.js';

const ROLES: readonly VideoImageRole[] = ['first_frame', 'last_frame', 'reference_image'];
/** One text and four images, with room for nothing else. */
const MAX_CONTENT = 1 + MAX_VIDEO_IMAGES;

interface ContentImage {
  url: string;
  role: VideoImageRole;
  /** Where it sits in `content`, for error messages. */
  index: number;
}

export interface ParsedContent {
  flags?: TextFlags;
  /** Index of the text element in `content`. */
  textIndex?: number;
  images: ContentImage[];
}

export function parseContent(value: unknown): ParsedContent {
  if (value === undefined || value === null) throw invalidRequest('content: is required', 'content');
  const items = requireArray(value, 'content');
  if (items.length === 0) throw invalidRequest('content: needs a text element or an image_url element', 'content');
  if (items.length > MAX_CONTENT)
    throw invalidRequest(`content: at most ${MAX_CONTENT} elements (one text, ${MAX_VIDEO_IMAGES} images), got ${items.length}`, 'content');
  const parsed: ParsedContent = { images: [] };
  const given: Array<VideoImageRole | undefined> = [];
  items.forEach((item, index) => {
    const param = `content[${index}]`;
    const element = requireObject(item, param);
    const type = oneOf(element.type, `${param}.type`, ['text', 'image_url'] as const);
    if (type === 'text') {
      if (parsed.textIndex !== undefined) throw invalidRequest(`${param}: only one text element is accepted (content[${parsed.textIndex}] is one)`, param);
      const text = requireString(element.text, `${param}.text`);
      parsed.textIndex = index;
      parsed.flags = parseTextFlags(text, `${param}.text`);
      return;
    }
    if (parsed.images.length === MAX_VIDEO_IMAGES) throw invalidRequest(`${param}: at most ${MAX_VIDEO_IMAGES} images are accepted`, param);
    const url = requireString(requireObject(element.image_url, `${param}.image_url`).url, `${param}.image_url.url`);
    const role = element.role === undefined || element.role === null ? undefined : oneOf(element.role, `${param}.role`, ROLES);
    given.push(role);
    parsed.images.push({ url, role: role ?? 'first_frame', index });
  });
  checkRoles(parsed.images, given);
  checkPrompt(parsed);
  return parsed;
}

function checkRoles(images: ContentImage[], given: Array<VideoImageRole | undefined>): void {
  if (images.length > 1) {
    const unnamed = given.indexOf(undefined);
    if (unnamed !== -1) {
      const param = `content[${images[unnamed].index}].role`;
      throw invalidRequest(`${param}: is required when the request has more than one image (first_frame, last_frame or reference_image)`, param);
    }
  }
  for (const role of ['first_frame', 'last_frame'] as const) {
    const twice = images.filter((image) => image.role === role)[1];
    if (twice) throw invalidRequest(`content[${twice.index}].role: only one image may be the ${role}`, `content[${twice.index}].role`);
  }
}

function checkPrompt(parsed: ParsedContent): void {
  if (parsed.textIndex === undefined) {
    if (parsed.images.length === 0) throw invalidRequest('content: needs a text element or an image_url element', 'content');
    return;
  }
  const param = `content[${parsed.textIndex}].text`;
  const prompt = parsed.flags?.prompt ?? '';
  // With images the prompt may be only flags (image-to-video); without, it is the whole request.
  if (prompt === '' && parsed.images.length > 0) return;
  checkPromptText(prompt, param);
}
