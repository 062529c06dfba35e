/**
 * The request's images as Ark `image_url` content items with their roles. Ark takes three
 * uses that do not mix: one first frame; a first and a last frame; or 1–4 reference images.
 * An image without a role is a first frame. Each image goes as the URL the client gave it by
 * (Ark fetches it itself, and the request stays small) or else inline as a data URL. Ark's own
 * limits on an image (format, under 30 MB, sides 300–6000 px, width/height 0.4–2.5) are checked
 * here so the refusal names `images`.
 */
import { GatewayError } from '../../core/errors.js';
import type { ImageInput } from '../../core/image.js';
import type { VideoImageRole } from '../../core/task.js';

export interface ArkImageItem {
  type: 'image_url';
  image_url: { url: string };
  role: VideoImageRole;
}

const MAX_ARK_REFERENCE_IMAGES = 4;
const MAX_IMAGE_BYTES = 30 * 1024 * 1024;
const FORMATS = new Set(['jpeg', 'png', 'webp', 'bmp', 'tiff', 'gif']);
const MAX_URL_CHARS = 4_096;

export function arkImageItems(images: readonly ImageInput[] | undefined, roles: readonly VideoImageRole[] | undefined): ArkImageItem[] {
  if (!images || images.length === 0) return [];
  const items = images.map(
    (image, index): ArkImageItem => ({ type: 'image_url', image_url: { url: imageUrl(image, index) }, role: roles?.[index] ?? 'first_frame' }),
  );
  const count = (role: VideoImageRole) => items.filter((item) => item.role === role).length;
  const first = count('first_frame');
  const last = count('last_frame');
  const references = count('reference_image');
  if (references === items.length && references <= MAX_ARK_REFERENCE_IMAGES) return items;
  if (items.length === 1 && first === 1) return items;
  if (items.length === 2 && first === 1 && last === 1) return items[0].role === 'first_frame' ? items : [items[1], items[0]];
  throw new GatewayError(
    'invalid_request',
    `Seedance takes one first frame, a first and a last frame, or 1 to ${MAX_ARK_REFERENCE_IMAGES} reference images (got ${first} first, ${last} last, ${references} reference)`,
    { param: 'images' },
  );
}

function imageUrl(image: ImageInput, index: number): string {
  const type = image.mediaType.toLowerCase();
  const format = type === 'image/jpg' ? 'jpeg' : type.replace(/^image\//, '');
  if (!type.startsWith('image/') || !FORMATS.has(format)) {
    throw invalidImage(index, `is ${image.mediaType}; Seedance takes JPEG, PNG, WebP, BMP, TIFF or GIF`);
  }
  if (image.data.length >= MAX_IMAGE_BYTES) throw invalidImage(index, 'is 30 MB or larger; Seedance takes smaller images');
  const { width, height } = image;
  if (width !== undefined && height !== undefined) {
    if (Math.min(width, height) <= 300 || Math.max(width, height) >= 6000)
      throw invalidImage(index, `is ${width}×${height}; Seedance takes sides between 300 and 6000 pixels`);
    const ratio = width / height;
    if (ratio <= 0.4 || ratio >= 2.5) throw invalidImage(index, `is ${width}×${height}; Seedance takes width/height between 0.4 and 2.5`);
  }
  const source = image.sourceUrl;
  if (source !== undefined && /^https?:\/\//i.test(source) && source.length <= MAX_URL_CHARS) return source;
  return `data:image/${format};base64,${Buffer.from(image.data).toString('base64')}`;
}

function invalidImage(index: number, why: string): GatewayError {
  return new GatewayError('invalid_request', `image ${index + 1} ${why}`, { param: 'images' });
}
