/**
 * BLEND: a 2×2 grid of real composites of the client's images (2–5), each resized to cover a
 * quadrant of the asked shape. Quadrant 1 is their even mix, 2 and 3 lean on one image each,
 * 4 lays them side by side in bands; a faint seeded pattern over each keeps the four distinct.
 */
import { invalidRequest } from '../../core/errors.js';
import type { ImageInput, ImageSize } from '../../core/image.js';
import type { BlendDimensions } from '../../core/task.js';
import { mixRasters } from '../images/mix-pixels.js';
import { decodeRaster, type Raster, renderPattern } from '../images/raster.js';
import { BLEND_MAX_IMAGES, BLEND_MIN_IMAGES } from '../images/sandbox-picture-ops.js';
import { bands, weightedMean } from './blend-layouts.js';
import { composeGrid, quadrantSeed } from './image-grid.js';

/** Quadrant sizes: PORTRAIT 2:3, SQUARE 1:1, LANDSCAPE 3:2 (the grid doubles them). */
const BLEND_QUADRANTS: Record<BlendDimensions, ImageSize> = {
  PORTRAIT: { width: 512, height: 768 },
  SQUARE: { width: 512, height: 512 },
  LANDSCAPE: { width: 768, height: 512 },
};

const PATTERN_SHARE = 0.12;
/** The weight of the image a leaning quadrant favours; the others share the rest. */
const LEAN = 0.6;

function leaning(count: number, favoured: number): number[] {
  return Array.from({ length: count }, (_, k) => (k === favoured ? LEAN : (1 - LEAN) / (count - 1)));
}

export async function drawBlendGrid(images: readonly ImageInput[], dimensions: BlendDimensions | undefined, seed: number): Promise<Buffer> {
  if (images.length < BLEND_MIN_IMAGES || images.length > BLEND_MAX_IMAGES) {
    throw invalidRequest(`images: a blend takes ${BLEND_MIN_IMAGES} to ${BLEND_MAX_IMAGES} images, got ${images.length}`, 'images');
  }
  const size = BLEND_QUADRANTS[dimensions ?? 'SQUARE'];
  // One at a time: each decode may be a large client image.
  const rasters: Raster[] = [];
  for (const [i, image] of images.entries()) rasters.push(await decodeRaster(image, size, `images[${i}]`, 'cover'));
  const even = rasters.map(() => 1);
  const composites = [
    weightedMean(rasters, even),
    weightedMean(rasters, leaning(rasters.length, 0)),
    weightedMean(rasters, leaning(rasters.length, 1)),
    bands(rasters),
  ];
  const quadrants = await Promise.all(
    composites.map(async (composite, i) => mixRasters(composite, await renderPattern(size, quadrantSeed(seed, i)), PATTERN_SHARE)),
  );
  return composeGrid(quadrants);
}
