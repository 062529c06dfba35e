/**
 * The canonical image weight (0–1, how much of the source image the result keeps) on
 * Ideogram's scale: an integer from 1 to 100. Linear, rounded, clamped — 0 still keeps a
 * little of the image, because Ideogram has no weight 0.
 */
export function toIdeogramImageWeight(weight: number): number {
  return Math.min(100, Math.max(1, Math.round(weight * 100)));
}
