/**
 * The canonical request's images → MiniMax's one `first_frame_image`. MiniMax takes a public
 * URL or a data URL (JPG, PNG or WebP under 20 MB): the URL the client gave when there is one
 * (a smaller request, and MiniMax fetches it as the gateway did), the bytes otherwise.
 */
import { GatewayError } from '../../core/errors.js';
import type { TaskRequest } from '../../core/task.js';

const MAX_IMAGE_BYTES = 20 * 1024 * 1024;
const MAX_URL_CHARS = 2_048;
const ACCEPTED_TYPES = new Set(['image/jpeg', 'image/jpg', 'image/png', 'image/webp']);

export function toMinimaxFirstFrame(request: Pick<TaskRequest, 'images' | 'imageRoles'>): string | undefined {
  const images = request.images ?? [];
  if (images.length === 0) return undefined;
  const refuse = (message: string) => new GatewayError('invalid_request', message, { param: 'images' });
  if (images.length > 1) throw refuse(`MiniMax takes one image, as the video's first frame; ${images.length} were given.`);
  const role = request.imageRoles?.[0] ?? 'first_frame';
  if (role !== 'first_frame') throw refuse(`MiniMax takes an image only as the video's first frame, not as ${role}.`);
  const image = images[0];
  const type = image.mediaType.toLowerCase();
  if (!ACCEPTED_TYPES.has(type)) throw refuse(`MiniMax takes a JPEG, PNG or WebP first frame, not ${image.mediaType.slice(0, 64)}.`);
  if (image.data.byteLength >= MAX_IMAGE_BYTES) throw refuse('MiniMax takes a first frame smaller than 20 MB.');
  if (image.sourceUrl && /^https?:\/\//i.test(image.sourceUrl) && image.sourceUrl.length <= MAX_URL_CHARS) return image.sourceUrl;
  return `data:${type === 'image/jpg' ? 'image/jpeg' : type};base64,${Buffer.from(image.data).toString('base64')}`;
}
