/**
 * The canonical image operations: generate, edit (with an optional mask), remix (one image
 * steered by a prompt) and blend (several images into one). Images going upstream are always
 * bytes: surfaces decode base64 and fetch URLs (with guards) before a provider sees them.
 */

export interface ImageInput {
  data: Uint8Array;
  /** e.g. `image/png`; checked against the bytes by the surface. */
  mediaType: string;
  filename?: string;
  /** As the header declares them, when the gateway checked the image (client images always are). */
  width?: number;
  height?: number;
  /** The URL the client gave it by, after the gateway fetched it (for upstreams that only take URLs). */
  sourceUrl?: string;
}

export interface ImageSize {
  width: number;
  height: number;
}

export type ImageResponseFormat = 'url' | 'b64_json';

interface ImageRequestBase {
  /** The public model id. */
  model: string;
  /** Images wanted (1 when the dialect has no such field). */
  n: number;
  size?: ImageSize;
  /** Aspect ratio such as `16:9`, when the client gave one instead of a size. */
  aspectRatio?: string;
  responseFormat: ImageResponseFormat;
  seed?: number;
  /** Provider-specific extras the dialect carried (quality, style, output format…). */
  options?: Record<string, unknown>;
}

export interface ImageGenerateRequest extends ImageRequestBase {
  prompt: string;
}

export interface ImageEditRequest extends ImageRequestBase {
  prompt: string;
  images: ImageInput[];
  /** Where to edit: transparent (or white, for grey masks) pixels mark the area. */
  mask?: ImageInput;
}

export interface ImageRemixRequest extends ImageRequestBase {
  prompt: string;
  image: ImageInput;
  /** How much the result should keep of the image, 0–1. */
  imageWeight?: number;
}

export interface ImageBlendRequest extends ImageRequestBase {
  prompt?: string;
  images: ImageInput[];
}

/** One produced image: bytes, or a URL the gateway fetches (upstream URLs expire). */
export interface ProducedImage {
  data?: Uint8Array;
  url?: string;
  mediaType?: string;
  revisedPrompt?: string;
  seed?: number;
  /** e.g. `1024x1024`. */
  resolution?: string;
  isImageSafe?: boolean;
  styleType?: string;
}

export interface ImageResult {
  /** Unix seconds. */
  created: number;
  images: ProducedImage[];
}

/** A produced image after the gateway took it over: bytes known, URL in the gateway's media store. */
export interface DeliveredImage extends Omit<ProducedImage, 'data' | 'url'> {
  mediaType: string;
  width?: number;
  height?: number;
  /** Set when the client asked for `url`. */
  url?: string;
  /** Set when the client asked for `b64_json`. */
  b64Json?: string;
}

export interface DeliveredImages {
  created: number;
  images: DeliveredImage[];
}
