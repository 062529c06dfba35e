/** Per-pixel arithmetic on RGBA rasters; alpha always comes from the first raster. */
import type { Raster } from './raster.js';

/** `base·(1−w) + over·w` per colour channel; `w` is a constant 0–1 or per-pixel weights 0–255. */
export function mixRasters(base: Raster, over: Raster, weight: number | Uint8Array): Raster {
  const out = Buffer.allocUnsafe(base.data.length);
  const a = base.data;
  const b = over.data;
  const constant = typeof weight === 'number' ? Math.round(Math.min(1, Math.max(0, weight)) * 255) : -1;
  for (let p = 0, i = 0; i < a.length; p++, i += 4) {
    const w = constant >= 0 ? constant : (weight as Uint8Array)[p];
    const k = 255 - w;
    out[i] = (a[i] * k + b[i] * w + 127) / 255;
    out[i + 1] = (a[i + 1] * k + b[i + 1] * w + 127) / 255;
    out[i + 2] = (a[i + 2] * k + b[i + 2] * w + 127) / 255;
    out[i + 3] = a[i + 3];
  }
  return { data: out, width: base.width, height: base.height, opaque: base.opaque };
}

/** The sandbox's visible "edit": colours inverted, then pulled `strength` (0–1) of the way to a tint. */
export function invertAndTint(raster: Raster, tint: readonly [number, number, number], strength: number): Raster {
  const out = Buffer.allocUnsafe(raster.data.length);
  const a = raster.data;
  const s = Math.min(1, Math.max(0, strength));
  for (let i = 0; i < a.length; i += 4) {
    out[i] = (255 - a[i]) * (1 - s) + tint[0] * s;
    out[i + 1] = (255 - a[i + 1]) * (1 - s) + tint[1] * s;
    out[i + 2] = (255 - a[i + 2]) * (1 - s) + tint[2] * s;
    out[i + 3] = a[i + 3];
  }
  return { data: out, width: raster.width, height: raster.height, opaque: raster.opaque };
}

/** The mean of same-sized rasters, alpha included. */
export function averageRasters(rasters: readonly Raster[]): Raster {
  const [first] = rasters;
  const sums = new Uint32Array(first.data.length);
  for (const raster of rasters) for (let i = 0; i < sums.length; i++) sums[i] += raster.data[i];
  const out = Buffer.allocUnsafe(sums.length);
  for (let i = 0; i < sums.length; i++) out[i] = Math.round(sums[i] / rasters.length);
  return { data: out, width: first.width, height: first.height, opaque: rasters.every((r) => r.opaque) };
}
