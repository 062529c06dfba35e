/** Ways of putting several same-sized RGBA rasters into one, each input's colours still measurable. */
import type { Raster } from '../images/raster.js';

/** Per-pixel weighted mean; `weights` (one per raster) need not sum to 1. */
export function weightedMean(rasters: readonly Raster[], weights: readonly number[]): Raster {
  const [first] = rasters;
  const total = weights.reduce((sum, w) => sum + w, 0);
  const shares = weights.map((w) => w / total);
  const out = Buffer.allocUnsafe(first.data.length);
  for (let i = 0; i < out.length; i += 4) {
    let r = 0;
    let g = 0;
    let b = 0;
    for (let k = 0; k < rasters.length; k++) {
      const data = rasters[k].data;
      r += data[i] * shares[k];
      g += data[i + 1] * shares[k];
      b += data[i + 2] * shares[k];
    }
    out[i] = Math.round(r);
    out[i + 1] = Math.round(g);
    out[i + 2] = Math.round(b);
    out[i + 3] = 255;
  }
  return { data: out, width: first.width, height: first.height, opaque: true };
}

/** Vertical bands side by side, band `k` taken from raster `k` (each at its own place). */
export function bands(rasters: readonly Raster[]): Raster {
  const [first] = rasters;
  const { width, height } = first;
  const out = Buffer.allocUnsafe(first.data.length);
  for (let x = 0; x < width; x++) {
    const source = rasters[Math.min(rasters.length - 1, Math.floor((x * rasters.length) / width))].data;
    for (let y = 0; y < height; y++) {
      const i = (y * width + x) * 4;
      out[i] = source[i];
      out[i + 1] = source[i + 1];
      out[i + 2] = source[i + 2];
      out[i + 3] = 255;
    }
  }
  return { data: out, width, height, opaque: true };
}
