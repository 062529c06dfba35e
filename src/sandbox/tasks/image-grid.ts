/**
 * The 2×2 grid an image task answers with: four pictures side by side, each labelled as
 * simulated, in MJ's order (1 top-left, 2 top-right, 3 bottom-left, 4 bottom-right).
 */
import type { ImageSize } from '../../core/image.js';
import { loadSharp } from '../../media/load-sharp.js';
import { hashSeed } from '../shared/hash-seed.js';
import { labelRaster, type Raster } from '../images/raster.js';

/** One quadrant of an IMAGINE grid (the grid is twice as wide and high). */
export const SQUARE_QUADRANT: ImageSize = { width: 512, height: 512 };

export interface Region {
  left: number;
  top: number;
  width: number;
  height: number;
}

/** Where quadrant `index` (1–4) lies in a grid of `size`. */
export function quadrantRegion(size: ImageSize, index: number): Region {
  const width = Math.floor(size.width / 2);
  const height = Math.floor(size.height / 2);
  return { left: (index - 1) % 2 === 0 ? 0 : width, top: index <= 2 ? 0 : height, width, height };
}

/** The seed of the `index`-th (0–3) picture of a grid drawn from `seed`, so that the four differ. */
export function quadrantSeed(seed: number, index: number): number {
  return hashSeed(`grid:${seed}:${index}`).seed;
}

/** Labels four same-sized pictures and lays them out as one opaque PNG. */
export async function composeGrid(quadrants: readonly Raster[]): Promise<Buffer> {
  if (quadrants.length !== 4) throw new Error(`a grid has four pictures, got ${quadrants.length}`);
  const { width, height } = quadrants[0];
  const labelled = await Promise.all(quadrants.map((quadrant) => labelRaster(quadrant)));
  const gridSize = { width: width * 2, height: height * 2 };
  const sharp = await loadSharp();
  return sharp({ create: { ...gridSize, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 1 } } })
    .composite(
      labelled.map((quadrant, i) => {
        const { left, top } = quadrantRegion(gridSize, i + 1);
        return { input: quadrant.data, raw: { width, height, channels: 4 as const }, left, top };
      }),
    )
    .removeAlpha()
    .png()
    .toBuffer();
}
