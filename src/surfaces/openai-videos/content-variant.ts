/**
 * What `GET /v1/videos/:id/content?variant=` serves: `video` (the default; result 0, as the
 * download route, `http/video-files/`) or `thumbnail` (result 1 when it is a PNG or JPEG image). The gateway makes
 * no `spritesheet`; it and a missing thumbnail answer 404 `variant_not_available`.
 */
import { describeValue } from '../../core/describe-value.js';
import { GatewayError, invalidRequest } from '../../core/errors.js';
import type { Task } from '../../core/task.js';
import type { TaskFile } from '../../http/video-files/serve-task-file.js';

type ContentVariant = 'video' | 'thumbnail' | 'spritesheet';

const VARIANTS: readonly ContentVariant[] = ['video', 'thumbnail', 'spritesheet'];
const THUMBNAIL_EXTENSIONS: Readonly<Record<string, string>> = { 'image/png': 'png', 'image/jpeg': 'jpg' };

export function parseContentVariant(query: unknown): ContentVariant {
  const value = ((query ?? {}) as Record<string, unknown>).variant;
  if (value === undefined || value === '') return 'video';
  if (typeof value !== 'string' || !VARIANTS.includes(value as ContentVariant))
    throw invalidRequest(`variant: must be one of ${VARIANTS.map((v) => `"${v}"`).join(', ')}, got ${describeValue(value)}`, 'variant');
  return value as ContentVariant;
}

/** The thumbnail: result 1 when it is a PNG or JPEG image. */
export function thumbnailFile(task: Task, statusWord: string): TaskFile {
  return {
    index: 1,
    accepts: (ref) => ref.kind === 'image' && Object.hasOwn(THUMBNAIL_EXTENSIONS, ref.mime),
    absent: () => variantNotAvailable(task, 'thumbnail'),
    filename: (ref) => `${task.id}.${THUMBNAIL_EXTENSIONS[ref.mime]}`,
    statusWord,
  };
}

export function variantNotAvailable(task: Task, variant: ContentVariant): GatewayError {
  return new GatewayError('not_found', `video ${JSON.stringify(task.id)} has no ${variant}`, { code: 'variant_not_available', param: 'variant' });
}
