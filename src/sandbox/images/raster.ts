/**
 * Pictures as raw RGBA pixels, the form the sandbox mixes them in, and the sharp calls that
 * get them in and out. Client images are opened with the gateway's pixel cap; decoding failures
 * of client images are the client's error (400).
 */
import type { Sharp } from 'sharp';
import { openImage } from '../../media/image-decoding.js';
import { loadSharp } from '../../media/load-sharp.js';
import { invalidRequest } from '../../core/errors.js';
import type { ImageInput, ImageSize } from '../../core/image.js';
import { patternSvg } from './pattern-svg.js';
import { simulatedLabelSvg } from './simulated-label.js';

export interface Raster {
  /** RGBA, row by row. */
  data: Buffer;
  width: number;
  height: number;
  /** The source had no alpha channel: encode without one. */
  opaque?: boolean;
}

async function probe(image: ImageInput, param: string): Promise<ImageSize & { hasAlpha: boolean }> {
  const meta = await (await openImage(image.data)).metadata().catch((error: unknown) => {
    throw undecodable(param, error);
  });
  if (!meta.width || !meta.height) throw invalidRequest(`${param}: the image has no dimensions`, param);
  return { width: meta.width, height: meta.height, hasAlpha: meta.hasAlpha === true };
}

export async function imageSize(image: ImageInput, param: string): Promise<ImageSize> {
  const { width, height } = await probe(image, param);
  return { width, height };
}

/** Decodes a client image to RGBA, resized to `size` (`fill` stretches, `cover` crops) unless it already has it. */
export async function decodeRaster(image: ImageInput, size: ImageSize, param: string, fit: 'fill' | 'cover' = 'fill'): Promise<Raster> {
  const own = await probe(image, param);
  let pipeline = await openImage(image.data);
  if (own.width !== size.width || own.height !== size.height) pipeline = pipeline.resize(size.width, size.height, { fit });
  const data = await pipeline
    .ensureAlpha()
    .raw()
    .toBuffer()
    .catch((error: unknown) => {
      throw undecodable(param, error);
    });
  return { data, width: size.width, height: size.height, opaque: !own.hasAlpha };
}

/** One channel per pixel (`alpha` of an image with one, else its grey level), resized to `size`. */
export async function decodeChannel(image: ImageInput, size: ImageSize, param: string): Promise<{ values: Buffer; fromAlpha: boolean }> {
  const fromAlpha = (await probe(image, param)).hasAlpha;
  let pipeline = (await openImage(image.data)).resize(size.width, size.height, { fit: 'fill' });
  pipeline = fromAlpha ? pipeline.ensureAlpha().extractChannel(3) : pipeline.greyscale().extractChannel(0);
  const values = await pipeline
    .raw()
    .toBuffer()
    .catch((error: unknown) => {
      throw undecodable(param, error);
    });
  return { values, fromAlpha };
}

export async function renderPattern(size: ImageSize, seed: number): Promise<Raster> {
  const data = await (await loadSharp())(patternSvg(size, seed)).ensureAlpha().raw().toBuffer();
  return { data, width: size.width, height: size.height, opaque: true };
}

async function fromRaw(raster: Raster): Promise<Sharp> {
  return (await loadSharp())(raster.data, { raw: { width: raster.width, height: raster.height, channels: 4 } });
}

/** The raster with the simulated label drawn over it. */
export async function labelRaster(raster: Raster): Promise<Raster> {
  const data = await (await fromRaw(raster))
    .composite([{ input: simulatedLabelSvg(raster.width, raster.height) }])
    .raw()
    .toBuffer();
  return { ...raster, data };
}

/** Encodes a raster as PNG (without alpha when its source had none). */
export async function encodePng(raster: Raster): Promise<Buffer> {
  const pipeline = await fromRaw(raster);
  return (raster.opaque ? pipeline.removeAlpha() : pipeline).png().toBuffer();
}

/** Renders the seeded pattern with the label, straight to PNG. */
export async function renderLabelledPattern(size: ImageSize, seed: number): Promise<Buffer> {
  return (await loadSharp())(patternSvg(size, seed))
    .composite([{ input: simulatedLabelSvg(size.width, size.height) }])
    .removeAlpha()
    .png()
    .toBuffer();
}

function undecodable(param: string, error: unknown): Error {
  const reason = error instanceof Error ? error.message : String(error);
  return invalidRequest(`${param}: the image could not be decoded (${reason})`, param);
}
