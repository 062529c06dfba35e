import { renderPattern } from '../images/raster.js';
import { composeGrid, quadrantSeed, SQUARE_QUADRANT } from './image-grid.js';

/** An IMAGINE (or reroll) grid: four seeded patterns drawn from one seed. */
export async function drawPatternGrid(seed: number): Promise<Buffer> {
  const quadrants = await Promise.all([0, 1, 2, 3].map((i) => renderPattern(SQUARE_QUADRANT, quadrantSeed(seed, i))));
  return composeGrid(quadrants);
}
