import { mixRasters } from '../images/mix-pixels.js';
import { renderPattern } from '../images/raster.js';
import { composeGrid, quadrantSeed } from './image-grid.js';
import { extractQuadrant } from './grid-quadrant.js';

/** Share of a fresh pattern mixed into each variation: the chosen picture stays recognisable. */
const VARIATION_STRENGTH = 0.3;

/** VARIATION: a new grid of four pictures, each the parent's quadrant `index` mixed with its own seeded pattern. */
export async function drawVariationGrid(grid: Uint8Array, index: number, seed: number): Promise<Buffer> {
  const chosen = await extractQuadrant(grid, index);
  const size = { width: chosen.width, height: chosen.height };
  const quadrants = await Promise.all([0, 1, 2, 3].map(async (i) => mixRasters(chosen, await renderPattern(size, quadrantSeed(seed, i)), VARIATION_STRENGTH)));
  return composeGrid(quadrants);
}
