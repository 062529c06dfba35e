/** Sizes and aspect ratios as Replicate's Flux models take them. */
import type { ImageSize } from '../../core/image.js';

/** The aspect ratios Flux models on Replicate accept (besides `custom` on the Pro models). */
const STANDARD_RATIOS = ['1:1', '16:9', '21:9', '3:2', '2:3', '4:5', '5:4', '3:4', '4:3', '9:16', '9:21'] as const;

/** The standard aspect ratio closest to the size's (compared on a log scale, so 2:1 and 1:2 are equally far from 1:1). */
export function nearestStandardRatio(size: ImageSize): string {
  const wanted = Math.log(size.width / size.height);
  let best: string = STANDARD_RATIOS[0];
  let bestDistance = Infinity;
  for (const ratio of STANDARD_RATIOS) {
    const [w, h] = ratio.split(':').map(Number);
    const distance = Math.abs(Math.log(w / h) - wanted);
    if (distance < bestDistance) {
      best = ratio;
      bestDistance = distance;
    }
  }
  return best;
}

/**
 * Flux Pro models take `aspect_ratio: "custom"` with a width and height that are multiples of
 * 32 within 256–1440 (they reject others), so the size is scaled into that range, keeping its
 * aspect ratio, and rounded to the nearest valid values.
 */
export function roundToCustomSize(size: ImageSize): ImageSize {
  const longest = Math.max(size.width, size.height);
  const shortest = Math.min(size.width, size.height);
  let scale = longest > 1440 ? 1440 / longest : 1;
  if (shortest * scale < 256) scale = 256 / shortest;
  const snap = (value: number) => Math.min(1440, Math.max(256, Math.round(value / 32) * 32));
  return { width: snap(size.width * scale), height: snap(size.height * scale) };
}
