/**
 * An image's declared type and dimensions, read from its header bytes without decoding any
 * pixel: PNG (IHDR), JPEG (the SOF marker, found by walking the marker segments), GIF (the
 * logical screen and every frame's descriptor, which decoders may let grow the canvas) and
 * WebP (VP8, VP8L or the VP8X canvas). Anything malformed or truncated reads as undefined.
 * Every walk moves forward through the bytes, so the work is linear in their length.
 */
import { sniffImageType, type SupportedImageType } from './image-type.js';

interface ImageHeader {
  mediaType: SupportedImageType;
  width: number;
  height: number;
}

function u16be(bytes: Uint8Array, at: number): number {
  return (bytes[at] << 8) | bytes[at + 1];
}

function u16le(bytes: Uint8Array, at: number): number {
  return bytes[at] | (bytes[at + 1] << 8);
}

function u24le(bytes: Uint8Array, at: number): number {
  return bytes[at] | (bytes[at + 1] << 8) | (bytes[at + 2] << 16);
}

function u32be(bytes: Uint8Array, at: number): number {
  return ((bytes[at] << 24) >>> 0) + ((bytes[at + 1] << 16) | (bytes[at + 2] << 8) | bytes[at + 3]);
}

function u32le(bytes: Uint8Array, at: number): number {
  return u24le(bytes, at) + ((bytes[at + 3] << 24) >>> 0);
}

function fourCC(bytes: Uint8Array, at: number): string {
  return String.fromCharCode(bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]);
}

type Dimensions = Pick<ImageHeader, 'width' | 'height'>;

/** The signature is followed at once by the IHDR chunk: length 13, type, width, height. */
function pngDimensions(bytes: Uint8Array): Dimensions | undefined {
  if (bytes.length < 24 || u32be(bytes, 8) !== 13 || fourCC(bytes, 12) !== 'IHDR') return undefined;
  return { width: u32be(bytes, 16), height: u32be(bytes, 20) };
}

/** Start-of-frame markers (baseline, extended, progressive, lossless, arithmetic…); not DHT (C4), JPG (C8), DAC (CC). */
function isStartOfFrame(marker: number): boolean {
  return marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
}

/**
 * Walks the marker segments after SOI by their lengths until a SOF. The largest of all the
 * frames counts (a file may carry more than one); scanning stops at SOS (entropy-coded data
 * follows) or at the end of the bytes. A height of 0 (deferred to a DNL marker) is unreadable.
 */
function jpegDimensions(bytes: Uint8Array): Dimensions | undefined {
  let at = 2;
  let found: Dimensions | undefined;
  while (at + 4 <= bytes.length) {
    if (bytes[at] !== 0xff) return found;
    const marker = bytes[at + 1];
    if (marker === 0xff) {
      at++; // fill byte
      continue;
    }
    if (marker === 0xd8 || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      at += 2; // markers without a length
      continue;
    }
    if (marker === 0xd9 || marker === 0xda) return found;
    const length = u16be(bytes, at + 2);
    if (length < 2) return undefined;
    if (isStartOfFrame(marker)) {
      if (length < 7 || at + 9 > bytes.length) return undefined;
      const height = u16be(bytes, at + 5);
      const width = u16be(bytes, at + 7);
      if (height === 0) return undefined;
      if (!found || width * height > found.width * found.height) found = { width, height };
    }
    at += 2 + length;
  }
  return found;
}

/**
 * GIF: the logical screen (bytes 6–9), then every frame's image descriptor. Blocks are walked
 * by their lengths; a frame reaching past the screen enlarges what a decoder allocates, so the
 * answer is the screen grown to cover every frame.
 */
function gifDimensions(bytes: Uint8Array): Dimensions | undefined {
  if (bytes.length < 13) return undefined;
  let width = u16le(bytes, 6);
  let height = u16le(bytes, 8);
  const flags = bytes[10];
  let at = 13 + (flags & 0x80 ? 3 * (2 << (flags & 0x07)) : 0);
  const skipSubBlocks = (): boolean => {
    while (at < bytes.length) {
      const size = bytes[at];
      at += 1 + size;
      if (size === 0) return true;
    }
    return false;
  };
  while (at < bytes.length) {
    const introducer = bytes[at];
    if (introducer === 0x3b) break; // trailer
    if (introducer === 0x21) {
      at += 2; // extension introducer and label
      if (!skipSubBlocks()) break;
    } else if (introducer === 0x2c) {
      if (at + 10 > bytes.length) break;
      width = Math.max(width, u16le(bytes, at + 1) + u16le(bytes, at + 5));
      height = Math.max(height, u16le(bytes, at + 3) + u16le(bytes, at + 7));
      const frameFlags = bytes[at + 9];
      at += 10 + (frameFlags & 0x80 ? 3 * (2 << (frameFlags & 0x07)) : 0);
      at += 1; // LZW minimum code size
      if (!skipSubBlocks()) break;
    } else {
      return undefined;
    }
  }
  return { width, height };
}

/** WebP: the first chunk after `RIFF····WEBP` is VP8 (lossy), VP8L (lossless) or VP8X (extended, with the canvas size). */
function webpDimensions(bytes: Uint8Array): Dimensions | undefined {
  if (bytes.length < 30) return undefined;
  const chunk = fourCC(bytes, 12);
  if (chunk === 'VP8 ') {
    // Frame tag (3 bytes), start code 9d 01 2a, then 14-bit width and height (2 bits of scale each).
    if (bytes[23] !== 0x9d || bytes[24] !== 0x01 || bytes[25] !== 0x2a) return undefined;
    return { width: u16le(bytes, 26) & 0x3fff, height: u16le(bytes, 28) & 0x3fff };
  }
  if (chunk === 'VP8L') {
    if (bytes[20] !== 0x2f) return undefined;
    const bits = u32le(bytes, 21);
    return { width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
  }
  if (chunk === 'VP8X') return { width: u24le(bytes, 24) + 1, height: u24le(bytes, 27) + 1 };
  return undefined;
}

const READERS: Record<SupportedImageType, (bytes: Uint8Array) => Dimensions | undefined> = {
  'image/png': pngDimensions,
  'image/jpeg': jpegDimensions,
  'image/gif': gifDimensions,
  'image/webp': webpDimensions,
};

/** The type and dimensions the header declares; undefined when it is no supported image or its header cannot be read. */
export function readImageHeader(bytes: Uint8Array): ImageHeader | undefined {
  const mediaType = sniffImageType(bytes);
  if (!mediaType) return undefined;
  const dimensions = READERS[mediaType](bytes);
  if (!dimensions || dimensions.width === 0 || dimensions.height === 0) return undefined;
  return { mediaType, ...dimensions };
}
