/**
 * Image bytes as clients send them (uploads, base64, `data:` URLs) → checked `ImageInput`s.
 * The media type is always sniffed from the bytes: declared types and file names lie. The
 * dimensions come from the header, before anything decodes the image, so a small file that
 * declares a huge picture (a decompression bomb) is refused without costing memory. Every
 * refusal is an `invalid_request` naming the param, so bad input is a 400, never a 500.
 */
import { GatewayError, invalidRequest } from './errors.js';
import type { ImageInput } from './image.js';
import { readImageHeader } from './image-header.js';
import { sniffImageType } from './image-type.js';
import { parseBase64DataUrl } from './wire/openai-data-url.js';

export { sniffImageType } from './image-type.js';

/**
 * Largest picture accepted by default, in pixels: 50 megapixels admits 8K frames (33 MP) and
 * 48 MP phone photos; a 12000×12000 bomb (144 MP) or 8000×8000 (64 MP) is refused. Decoded as
 * RGBA, 50 MP is 200 MB.
 */
export const DEFAULT_MAX_IMAGE_PIXELS = 50_000_000;

/** What the gateway accepts of one client image (config `media.maxImageBytes` and `media.maxImagePixels`). */
export interface ImageLimits {
  maxBytes: number;
  maxPixels: number;
}

export const DEFAULT_IMAGE_LIMITS: ImageLimits = { maxBytes: 20 * 1024 * 1024, maxPixels: DEFAULT_MAX_IMAGE_PIXELS };

interface ImageBytesOptions {
  filename?: string;
  /** Largest accepted image in bytes (decoded). */
  maxBytes?: number;
  /** Largest accepted picture, width × height as the header declares it (default `DEFAULT_MAX_IMAGE_PIXELS`). */
  maxPixels?: number;
}

function describePixels(pixels: number): string {
  return `${pixels} pixels (${Number((pixels / 1_000_000).toFixed(1))} megapixels)`;
}

/**
 * Checks that bytes are a non-empty supported image within `maxBytes` and `maxPixels`, reading
 * only its header, and labels them with their real type and dimensions.
 */
export function toImageInput(bytes: Uint8Array, param: string, options: ImageBytesOptions = {}): ImageInput {
  if (bytes.length === 0) throw invalidRequest(`${param}: the image is empty (0 bytes)`, param);
  if (options.maxBytes !== undefined && bytes.length > options.maxBytes) {
    throw new GatewayError('request_too_large', `${param}: the image is ${bytes.length} bytes, larger than the limit of ${options.maxBytes} bytes`, {
      param,
      code: 'image_too_large',
    });
  }
  if (!sniffImageType(bytes)) throw invalidRequest(`${param}: unsupported image type; expected a PNG, JPEG, WebP or GIF image`, param);
  const header = readImageHeader(bytes);
  if (!header) throw invalidRequest(`${param}: the image's header is damaged or incomplete, so its dimensions cannot be read`, param);
  const { mediaType, width, height } = header;
  const maxPixels = options.maxPixels ?? DEFAULT_MAX_IMAGE_PIXELS;
  if (width * height > maxPixels) {
    throw invalidRequest(`${param}: the image is ${width}×${height} pixels, more than the limit of ${describePixels(maxPixels)}; scale it down`, param);
  }
  const image: ImageInput = { data: bytes, mediaType, width, height };
  if (options.filename !== undefined) image.filename = options.filename;
  return image;
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
const BASE64_URL = /^[A-Za-z0-9_-]*={0,2}$/;

/**
 * Strict base64 (standard or URL-safe alphabet, whitespace ignored). Node's own decoder skips
 * characters it does not know, which would turn garbage into garbage bytes instead of a 400.
 */
export function decodeBase64(value: string, param: string): Uint8Array {
  const text = /\s/.test(value) ? value.replace(/\s+/g, '') : value;
  if (text.length === 0) throw invalidRequest(`${param}: the image is empty (no base64 data)`, param);
  const padded = text.endsWith('=');
  if (!(BASE64.test(text) || BASE64_URL.test(text)) || text.length % 4 === 1 || (padded && text.length % 4 !== 0)) {
    throw invalidRequest(`${param}: invalid base64 data`, param);
  }
  return Buffer.from(text, 'base64');
}

export function isDataUrl(value: string): boolean {
  return value.startsWith('data:');
}

/** A base64 `data:` URL or bare base64 string → a checked image. */
export function decodeImageString(value: string, param: string, options: ImageBytesOptions = {}): ImageInput {
  let base64 = value;
  if (isDataUrl(value)) {
    const parsed = parseBase64DataUrl(value);
    if (!parsed) throw invalidRequest(`${param}: a data URL must be base64-encoded and not empty, like data:image/png;base64,…`, param);
    base64 = parsed.data;
  }
  return toImageInput(decodeBase64(base64, param), param, options);
}
