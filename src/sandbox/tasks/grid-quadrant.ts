/**
 * Reading one quadrant back out of a grid the sandbox drew (a parent task's result). The grid
 * is opened with the gateway's pixel cap like any stored image, although the sandbox made it.
 */
import { invalidRequest } from '../../core/errors.js';
import type { ImageSize } from '../../core/image.js';
import { openImage } from '../../media/image-decoding.js';
import type { Raster } from '../images/raster.js';
import { quadrantRegion, type Region } from './image-grid.js';

async function regionOf(grid: Uint8Array, index: number): Promise<Region> {
  const meta = await (await openImage(grid)).metadata().catch(() => undefined);
  if (!meta?.width || !meta.height || meta.width < 2 || meta.height < 2) throw invalidRequest('the parent task has no image grid to act on', 'customId');
  const size: ImageSize = { width: meta.width, height: meta.height };
  return quadrantRegion(size, index);
}

/** Quadrant `index` (1–4) as RGBA pixels. */
export async function extractQuadrant(grid: Uint8Array, index: number): Promise<Raster> {
  const region = await regionOf(grid, index);
  const data = await (await openImage(grid)).extract(region).ensureAlpha().raw().toBuffer();
  return { data, width: region.width, height: region.height, opaque: true };
}

/** UPSCALE: quadrant `index` enlarged twice, as a PNG (it keeps the label it was drawn with). */
export async function upscaleQuadrant(grid: Uint8Array, index: number): Promise<Buffer> {
  const region = await regionOf(grid, index);
  return (await openImage(grid))
    .extract(region)
    .resize(region.width * 2, region.height * 2, { kernel: 'lanczos3' })
    .removeAlpha()
    .png()
    .toBuffer();
}
