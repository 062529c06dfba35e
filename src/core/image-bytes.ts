/**
 * Image bytes as clients send them (uploads, base64, `data:` URLs) → checked `ImageInput`s.
 * The media type is always sniffed from the bytes: declared types and file names lie. Every
 * refusal is an `invalid_request` naming the param, so bad input is a 400, never a 500.
 */
import { GatewayError, invalidRequest } from './errors.js';
import type { ImageInput } from './image.js';
import { parseBase64DataUrl } from './wire/openai-data-url.js';

export type SupportedImageType = 'image/png' | 'image/jpeg' | 'image/webp' | 'image/gif';

export const SUPPORTED_IMAGE_TYPES: readonly SupportedImageType[] = ['image/png', 'image/jpeg', 'image/webp', 'image/gif'];

export interface ImageBytesOptions {
  filename?: string;
  /** Largest accepted image in bytes (decoded). */
  maxBytes?: number;
}

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

function startsWith(bytes: Uint8Array, signature: readonly number[], offset = 0): boolean {
  if (bytes.length < offset + signature.length) return false;
  for (let i = 0; i < signature.length; i++) if (bytes[offset + i] !== signature[i]) return false;
  return true;
}

function ascii(text: string): number[] {
  return [...text].map((c) => c.charCodeAt(0));
}

const GIF87 = ascii('GIF87a');
const GIF89 = ascii('GIF89a');
const RIFF = ascii('RIFF');
const WEBP = ascii('WEBP');

/** The image type the magic bytes announce, or undefined for anything else. */
export function sniffImageType(bytes: Uint8Array): SupportedImageType | undefined {
  if (startsWith(bytes, PNG_SIGNATURE)) return 'image/png';
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (startsWith(bytes, GIF87) || startsWith(bytes, GIF89)) return 'image/gif';
  if (startsWith(bytes, RIFF) && startsWith(bytes, WEBP, 8)) return 'image/webp';
  return undefined;
}

/** Checks that bytes are a non-empty supported image (within `maxBytes`) and labels them with their real type. */
export function toImageInput(bytes: Uint8Array, param: string, options: ImageBytesOptions = {}): ImageInput {
  if (bytes.length === 0) throw invalidRequest(`${param}: the image is empty (0 bytes)`, param);
  if (options.maxBytes !== undefined && bytes.length > options.maxBytes) {
    throw new GatewayError('request_too_large', `${param}: the image is ${bytes.length} bytes, larger than the limit of ${options.maxBytes} bytes`, {
      param,
      code: 'image_too_large',
    });
  }
  const mediaType = sniffImageType(bytes);
  if (!mediaType) throw invalidRequest(`${param}: unsupported image type; expected a PNG, JPEG, WebP or GIF image`, param);
  const image: ImageInput = { data: bytes, mediaType };
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
