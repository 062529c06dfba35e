/**
 * How the gateway decodes images it did not make (client images, masks, upstream results)
 * with sharp: never a picture over the configured pixel cap — libvips refuses it from the
 * header, a second line behind `toImageInput`'s own check — and only a few decodes at a time,
 * so that many requests with several images each queue instead of multiplying memory.
 */
import type { Sharp, SharpOptions } from 'sharp';
import { DEFAULT_MAX_IMAGE_PIXELS } from '../core/image-bytes.js';
import { DecodeSlots } from './decode-slots.js';
import { loadSharp } from './load-sharp.js';

/** Decodes running at once: a full-size decode is up to 200 MB of pixels at the default cap. */
const DEFAULT_CONCURRENT_DECODES = 2;

let maxPixels = DEFAULT_MAX_IMAGE_PIXELS;
const slots = new DecodeSlots(DEFAULT_CONCURRENT_DECODES);

/** Set once at start from `media.maxImagePixels`; sharp and its thread pool are process-wide too. */
export function configureImageDecoding(settings: { maxPixels: number; concurrentDecodes?: number }): void {
  maxPixels = settings.maxPixels;
  slots.resize(settings.concurrentDecodes ?? DEFAULT_CONCURRENT_DECODES);
}

/** A sharp pipeline over image bytes from outside, limited to the pixel cap. */
export async function openImage(input: Uint8Array, options: SharpOptions = {}): Promise<Sharp> {
  return (await loadSharp())(input, { limitInputPixels: maxPixels, ...options });
}

/** Runs work that decodes images in one of the few decode slots (waiting for one, unless `signal` aborts first). */
export function withDecodeSlot<T>(work: () => Promise<T>, signal?: AbortSignal): Promise<T> {
  return slots.run(work, signal);
}

/** For tests: how busy the slots are. */
export function decodeSlotUsage(): { active: number; queued: number } {
  return { active: slots.active, queued: slots.queued };
}
