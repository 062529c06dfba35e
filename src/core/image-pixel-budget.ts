/**
 * The pixels all images of one request may declare together. Each image is already within the
 * per-image cap; this stops a request from multiplying it (sixteen edit images, five blend
 * images, an image and its mask) beyond what the gateway is ready to decode for one call.
 */
import { invalidRequest } from './errors.js';
import type { ImageInput } from './image.js';

/** A request's images together may declare this many times the per-image cap. */
const REQUEST_PIXELS_PER_IMAGE_CAP = 4;

export class ImagePixelBudget {
  private used = 0;

  constructor(readonly limit: number) {}

  static forImageCap(maxImagePixels: number): ImagePixelBudget {
    return new ImagePixelBudget(maxImagePixels * REQUEST_PIXELS_PER_IMAGE_CAP);
  }

  /** Counts a checked image against the budget; refuses it, naming `param`, when the request's total goes over. */
  take(image: ImageInput, param: string): ImageInput {
    if (image.width === undefined || image.height === undefined) {
      throw new Error(`${param}: an image must be checked (toImageInput) before it is counted`);
    }
    this.used += image.width * image.height;
    if (this.used > this.limit) {
      throw invalidRequest(
        `${param}: the request's images add up to more than ${this.limit / 1_000_000} megapixels, the limit for one request; send fewer or smaller images`,
        param,
      );
    }
    return image;
  }
}
