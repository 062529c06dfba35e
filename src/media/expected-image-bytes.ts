/**
 * What the images of one request will take in the media store, known before the upstream
 * runs: each at most its pixels × 4 bytes (RGBA uncompressed; PNG, JPEG and WebP answers are
 * smaller) at the asked size, or at 1024×1024 — the usual default — when none is asked, and
 * never more than `media.maxImageBytes`. The stored size is checked again when it is written.
 */
import type { ImageSize } from '../core/image.js';

const DEFAULT_PIXELS = 1024 * 1024;
/** Headers, chunk framing and PNG's filter byte per row. */
const OVERHEAD_BYTES = 64 * 1024;

export function expectedImageBytes(request: { n: number; size?: ImageSize }, maxImageBytes: number): number {
  const pixels = request.size ? request.size.width * request.size.height : DEFAULT_PIXELS;
  const perImage = Math.min(maxImageBytes, pixels * 4 + OVERHEAD_BYTES);
  return Math.max(1, request.n) * perImage;
}
