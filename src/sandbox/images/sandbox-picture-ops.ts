/**
 * What the sandbox does to pictures, one PNG at a time: generate a seeded pattern, edit an
 * image (inside the mask only, when there is one), remix an image with a pattern, blend images.
 */
import { invalidRequest } from '../../core/errors.js';
import type { ImageBlendRequest, ImageEditRequest, ImageGenerateRequest, ImageRemixRequest, ImageSize } from '../../core/image.js';
import { createPrng } from '../shared/prng.js';
import { checkRequestedSize, chooseOutputSize, fitWithinMaxSide } from './choose-output-size.js';
import { averageRasters, invertAndTint, mixRasters } from './mix-pixels.js';
import { decodeChannel, decodeRaster, encodePng, imageSize, labelRaster, renderLabelledPattern, renderPattern } from './raster.js';

export interface Picture {
  png: Buffer;
  size: ImageSize;
}

const TINTS: ReadonlyArray<readonly [number, number, number]> = [
  [255, 64, 160],
  [64, 200, 255],
  [255, 200, 0],
  [120, 255, 80],
  [180, 90, 255],
  [255, 120, 40],
];

/** Blends may take this many images. */
export const BLEND_MIN_IMAGES = 2;
export const BLEND_MAX_IMAGES = 5;

/** Every operation draws at most `maxSide` pixels a side (`sandbox.maxImageSide`). */
export async function generatePicture(request: ImageGenerateRequest, seed: number, maxSide: number): Promise<Picture> {
  const size = chooseOutputSize(request, undefined, maxSide);
  return { png: await renderLabelledPattern(size, seed), size };
}

/**
 * Inverts and tints the first image (resized to the requested size), labelled. With a mask,
 * only where the mask is transparent (or white, for a mask without alpha): elsewhere the
 * pixels stay exactly as they were. Further images (references, for GPT image models) are
 * not used by the sandbox.
 */
export async function editPicture(request: ImageEditRequest, seed: number, maxSide: number): Promise<Picture> {
  const [image] = request.images;
  if (!image) throw invalidRequest('image: at least one image is required', 'image');
  const size = request.size ? checkRequestedSize(request.size, maxSide) : fitWithinMaxSide(await imageSize(image, 'image'), maxSide);
  const base = await decodeRaster(image, size, 'image');
  const edited = await labelRaster(invertAndTint(base, createPrng(seed).pick(TINTS), 0.35));
  if (!request.mask) return { png: await encodePng(edited), size };
  const mask = await decodeChannel(request.mask, size, 'mask');
  const weights = mask.fromAlpha ? invertBytes(mask.values) : mask.values;
  return { png: await encodePng(mixRasters(base, edited, weights)), size };
}

/** The image mixed with a seeded pattern: `imageWeight` (default 0.5) of the image survives. */
export async function remixPicture(request: ImageRemixRequest, seed: number, maxSide: number): Promise<Picture> {
  const size = chooseOutputSize(request, await imageSize(request.image, 'image'), maxSide);
  const [image, pattern] = await Promise.all([decodeRaster(request.image, size, 'image', 'cover'), renderPattern(size, seed)]);
  const mixed = mixRasters(pattern, image, request.imageWeight ?? 0.5);
  return { png: await encodePng(await labelRaster(mixed)), size };
}

/** The mean of the images (each cropped to the output size), with a faint seeded pattern so that `n` results differ. */
export async function blendPicture(request: ImageBlendRequest, seed: number, maxSide: number): Promise<Picture> {
  const { images } = request;
  if (images.length < BLEND_MIN_IMAGES || images.length > BLEND_MAX_IMAGES) {
    throw invalidRequest(`images: a blend takes ${BLEND_MIN_IMAGES} to ${BLEND_MAX_IMAGES} images, got ${images.length}`, 'images');
  }
  const size = chooseOutputSize(request, await imageSize(images[0], 'images[0]'), maxSide);
  const rasters = await Promise.all(images.map((image, i) => decodeRaster(image, size, `images[${i}]`, 'cover')));
  const mixed = mixRasters(averageRasters(rasters), await renderPattern(size, seed), 0.15);
  return { png: await encodePng(await labelRaster(mixed)), size };
}

function invertBytes(values: Buffer): Buffer {
  const out = Buffer.allocUnsafe(values.length);
  for (let i = 0; i < values.length; i++) out[i] = 255 - values[i];
  return out;
}
