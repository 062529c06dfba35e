/**
 * Hostile images, built once per run: decompression bombs (a small file that decodes to
 * gigabytes), headers claiming absurd sizes, truncated and mislabelled files, SVG bombs, and a
 * few large but honest pictures. Deterministic: nothing here depends on the seed.
 */
import { crc32, deflateSync } from 'node:zlib';
import sharp from 'sharp';
import { Random } from './random.js';

export interface HostileImage {
  name: string;
  bytes: Buffer;
  /** The media type a client would claim for it. */
  mediaType: string;
}

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const typed = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typed));
  return Buffer.concat([length, typed, crc]);
}

/** A PNG whose header says width × height and whose data is `idat` (compressed scanlines). */
function png(width: number, height: number, bitDepth: number, colorType: number, idat: Buffer): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.writeUInt8(bitDepth, 8);
  header.writeUInt8(colorType, 9);
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([signature, pngChunk('IHDR', header), pngChunk('IDAT', idat), pngChunk('IEND', Buffer.alloc(0))]);
}

/** 1-bit grey, all zero: about 50 KB on the wire, 1.6 GB once decoded to RGBA. */
function pngBomb(side: number): Buffer {
  const rowBytes = 1 + Math.ceil(side / 8);
  return png(side, side, 1, 0, deflateSync(Buffer.alloc(rowBytes * side), { level: 9 }));
}

function jpegClaiming(width: number, height: number): Buffer {
  const sof = Buffer.from([0xff, 0xc0, 0x00, 0x11, 0x08, height >> 8, height & 0xff, width >> 8, width & 0xff, 0x03, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1]);
  return Buffer.concat([Buffer.from([0xff, 0xd8]), sof, Buffer.from([0xff, 0xd9])]);
}

function gifClaiming(width: number, height: number): Buffer {
  const screen = Buffer.alloc(7);
  screen.writeUInt16LE(width, 0);
  screen.writeUInt16LE(height, 2);
  return Buffer.concat([
    Buffer.from('GIF89a', 'latin1'),
    screen,
    Buffer.from([0x2c, 0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff, 0, 0x02, 0x02, 0x44, 0x01, 0x00, 0x3b]),
  ]);
}

const SVG_HUGE = '<svg xmlns="http://www.w3.org/2000/svg" width="200000" height="200000"><rect width="200000" height="200000" fill="red"/></svg>';
const SVG_ENTITIES = `<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY a "aaaaaaaaaa">${Array.from(
  { length: 9 },
  (_, i) => `<!ENTITY ${String.fromCharCode(98 + i)} "${`&${String.fromCharCode(97 + i)};`.repeat(10)}">`,
).join('')}]><svg xmlns="http://www.w3.org/2000/svg" width="64" height="64"><text>&j;</text></svg>`;

export async function buildHostileImages(): Promise<HostileImage[]> {
  const noise = Buffer.alloc(1024 * 1024 * 3);
  const random = new Random(7);
  for (let i = 0; i < noise.length; i += 1) noise[i] = Math.floor(random.next() * 256);
  const tiny = await sharp({ create: { width: 8, height: 8, channels: 3, background: { r: 200, g: 30, b: 30 } } })
    .png()
    .toBuffer();
  const medium = await sharp(noise.subarray(0, 64 * 64 * 3), { raw: { width: 64, height: 64, channels: 3 } })
    .png()
    .toBuffer();
  const bigNoisePng = await sharp(noise, { raw: { width: 1024, height: 1024, channels: 3 } })
    .png({ compressionLevel: 1 })
    .toBuffer();
  return [
    { name: 'tiny PNG', bytes: tiny, mediaType: 'image/png' },
    { name: 'PNG bomb 20000²', bytes: pngBomb(20_000), mediaType: 'image/png' },
    { name: 'PNG header claiming 10⁶×10⁶', bytes: png(1_000_000, 1_000_000, 8, 2, deflateSync(Buffer.alloc(64))), mediaType: 'image/png' },
    { name: 'PNG header claiming 0×0', bytes: png(0, 0, 8, 2, deflateSync(Buffer.alloc(1))), mediaType: 'image/png' },
    { name: 'truncated PNG', bytes: medium.subarray(0, Math.floor(medium.length / 2)), mediaType: 'image/png' },
    { name: 'JPEG header claiming 65500²', bytes: jpegClaiming(65_500, 65_500), mediaType: 'image/jpeg' },
    { name: 'GIF claiming 65535²', bytes: gifClaiming(65_535, 65_535), mediaType: 'image/gif' },
    { name: 'huge SVG', bytes: Buffer.from(SVG_HUGE), mediaType: 'image/svg+xml' },
    { name: 'SVG entity bomb', bytes: Buffer.from(SVG_ENTITIES), mediaType: 'image/svg+xml' },
    { name: 'text labelled PNG', bytes: Buffer.from('this is not an image at all'), mediaType: 'image/png' },
    { name: 'PNG labelled JPEG', bytes: tiny, mediaType: 'image/jpeg' },
    { name: 'noise after a PNG signature (1 MB)', bytes: Buffer.concat([tiny.subarray(0, 8), noise.subarray(0, 1024 * 1024)]), mediaType: 'image/png' },
    { name: 'large noisy PNG 1024²', bytes: bigNoisePng, mediaType: 'image/png' },
  ];
}
