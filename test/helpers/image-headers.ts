/**
 * Image files built byte by byte for tests of the header checks: headers that declare any
 * size (the pixel data after them is a stub), and a complete, valid PNG of any size whose
 * pixel data is a deflated run of zeros — a real decompression bomb, a few kilobytes long.
 */
import { deflateSync } from 'node:zlib';

function crc32(bytes: Uint8Array): number {
  let crc = 0xffffffff;
  for (const byte of bytes) {
    crc ^= byte;
    for (let k = 0; k < 8; k++) crc = crc & 1 ? (crc >>> 1) ^ 0xedb88320 : crc >>> 1;
  }
  return (crc ^ 0xffffffff) >>> 0;
}

function pngChunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function ihdr(width: number, height: number, bitDepth: number, colourType: number): Buffer {
  const data = Buffer.alloc(13);
  data.writeUInt32BE(width, 0);
  data.writeUInt32BE(height, 4);
  data[8] = bitDepth;
  data[9] = colourType;
  return pngChunk('IHDR', data);
}

/** PNG signature and IHDR declaring `width`×`height` (8-bit RGB), then a stub IDAT and IEND. */
export function pngHeader(width: number, height: number): Buffer {
  return Buffer.concat([PNG_SIGNATURE, ihdr(width, height, 8, 2), pngChunk('IDAT', deflateSync(Buffer.alloc(1))), pngChunk('IEND', Buffer.alloc(0))]);
}

/** A complete 1-bit greyscale PNG of `width`×`height` black pixels: valid, decodable, tiny. */
export function blackPng(width: number, height: number): Buffer {
  const row = 1 + Math.ceil(width / 8);
  const idat = deflateSync(Buffer.alloc(row * height), { level: 9 });
  return Buffer.concat([PNG_SIGNATURE, ihdr(width, height, 1, 0), pngChunk('IDAT', idat), pngChunk('IEND', Buffer.alloc(0))]);
}

/** SOI, an APP0 segment, a SOF (baseline unless told) declaring `width`×`height`, a stub scan, EOI. */
export function jpegHeader(width: number, height: number, sofMarker = 0xc0): Buffer {
  const app0 = Buffer.from([0xff, 0xe0, 0x00, 0x10, ...Buffer.from('JFIF\0', 'latin1'), 1, 1, 0, 0, 1, 0, 1, 0, 0]);
  const sof = Buffer.from([0xff, sofMarker, 0x00, 0x11, 8, height >> 8, height & 0xff, width >> 8, width & 0xff, 3, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1]);
  const sos = Buffer.from([0xff, 0xda, 0x00, 0x0c, 3, 1, 0x00, 2, 0x11, 3, 0x11, 0, 0x3f, 0]);
  return Buffer.concat([Buffer.from([0xff, 0xd8]), app0, sof, sos, Buffer.from([0x00, 0xff, 0xd9])]);
}

/** GIF89a with a `screen` logical screen and one frame at (left, top) of `frame` size. */
export function gifHeader(screen: { width: number; height: number }, frame = { left: 0, top: 0, width: screen.width, height: screen.height }): Buffer {
  const head = Buffer.alloc(13);
  head.write('GIF89a', 0, 'latin1');
  head.writeUInt16LE(screen.width, 6);
  head.writeUInt16LE(screen.height, 8);
  const descriptor = Buffer.alloc(10);
  descriptor[0] = 0x2c;
  descriptor.writeUInt16LE(frame.left, 1);
  descriptor.writeUInt16LE(frame.top, 3);
  descriptor.writeUInt16LE(frame.width, 5);
  descriptor.writeUInt16LE(frame.height, 7);
  // A graphic control extension before the frame, LZW data of one sub-block, then the trailer.
  const extension = Buffer.from([0x21, 0xf9, 0x04, 0x00, 0x00, 0x00, 0x00, 0x00]);
  return Buffer.concat([head, extension, descriptor, Buffer.from([0x02, 0x02, 0x44, 0x01, 0x00, 0x3b])]);
}

function riff(chunkType: string, chunk: Buffer): Buffer {
  const header = Buffer.alloc(20);
  header.write('RIFF', 0, 'latin1');
  header.writeUInt32LE(12 + chunk.length, 4);
  header.write('WEBP', 8, 'latin1');
  header.write(chunkType, 12, 'latin1');
  header.writeUInt32LE(chunk.length, 16);
  return Buffer.concat([header, chunk, Buffer.alloc(chunk.length % 2)]);
}

/** WebP with a lossy VP8 key frame header declaring `width`×`height` (at most 16383 each). */
export function webpVp8Header(width: number, height: number): Buffer {
  const chunk = Buffer.alloc(20);
  chunk[0] = 0x10; // key frame, version 0, shown
  chunk.set([0x9d, 0x01, 0x2a], 3);
  chunk.writeUInt16LE(width, 6);
  chunk.writeUInt16LE(height, 8);
  return riff('VP8 ', chunk);
}

/** WebP with a lossless VP8L header declaring `width`×`height` (at most 16384 each). */
export function webpVp8lHeader(width: number, height: number): Buffer {
  const chunk = Buffer.alloc(10);
  chunk[0] = 0x2f;
  chunk.writeUInt32LE(((width - 1) | ((height - 1) << 14)) >>> 0, 1);
  return riff('VP8L', chunk);
}

/** Extended WebP (VP8X) declaring a `width`×`height` canvas (up to 2^24 each). */
export function webpVp8xHeader(width: number, height: number): Buffer {
  const chunk = Buffer.alloc(10);
  chunk.writeUIntLE(width - 1, 4, 3);
  chunk.writeUIntLE(height - 1, 7, 3);
  return riff('VP8X', chunk);
}
