/**
 * The canonical request's common settings as Ideogram 3.0 form fields: count, seed, size and
 * the Ideogram extras the imagegen2 surface carried in `options` under their own names.
 */
import type { ImageGenerateRequest } from '../../core/image.js';
import { IDEOGRAM_ASPECT_RATIOS, IDEOGRAM_RESOLUTIONS, normalizeIdeogramAspectRatio } from '../../core/wire/ideogram-types.js';

type CommonSettings = Pick<ImageGenerateRequest, 'n' | 'seed' | 'size' | 'aspectRatio' | 'options'>;

const PASSED_OPTIONS = ['rendering_speed', 'style_type', 'magic_prompt', 'negative_prompt', 'style_preset'] as const;

/** Fields every 3.0 endpoint takes. */
export function appendCommonFields(form: FormData, request: CommonSettings): void {
  form.append('num_images', String(request.n));
  if (request.seed !== undefined) form.append('seed', String(request.seed));
  for (const name of PASSED_OPTIONS) {
    const value = request.options?.[name];
    if (typeof value === 'string' && value.length > 0) form.append(name, value);
  }
}

/**
 * Output size for generate and remix (edit keeps the image's size): an exact Ideogram
 * resolution when the size is one, otherwise the nearest of its aspect ratios.
 */
export function appendSizeFields(form: FormData, request: CommonSettings): void {
  if (request.size) {
    const resolution = `${request.size.width}x${request.size.height}`;
    if (IDEOGRAM_RESOLUTIONS.has(resolution)) form.append('resolution', resolution);
    else form.append('aspect_ratio', nearestAspectRatio(request.size.width / request.size.height));
    return;
  }
  if (request.aspectRatio) {
    const known = normalizeIdeogramAspectRatio(request.aspectRatio);
    const ratio = known ?? nearestAspectRatio(ratioValue(request.aspectRatio));
    form.append('aspect_ratio', ratio.replace(':', 'x'));
  }
}

/** Ideogram's aspect ratio (`WxH`) closest to `value` = width / height, compared on a log scale. */
export function nearestAspectRatio(value: number): string {
  if (!Number.isFinite(value) || value <= 0) return '1x1';
  let best = '1:1';
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const ratio of IDEOGRAM_ASPECT_RATIOS) {
    const distance = Math.abs(Math.log(ratioValue(ratio)) - Math.log(value));
    if (distance < bestDistance) {
      best = ratio;
      bestDistance = distance;
    }
  }
  return best.replace(':', 'x');
}

function ratioValue(ratio: string): number {
  const [w, h] = ratio.split(/[:x]/).map(Number);
  return w / h;
}
