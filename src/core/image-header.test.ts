import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { blackPng, gifHeader, jpegHeader, pngHeader, webpVp8Header, webpVp8lHeader, webpVp8xHeader } from '../../test/helpers/image-headers.js';
import { readImageHeader } from './image-header.js';

describe('readImageHeader', () => {
  it('reads the size of images made by a real encoder, as sharp reports it', async () => {
    const base = () => sharp({ create: { width: 37, height: 21, channels: 4, background: { r: 1, g: 2, b: 3, alpha: 0.5 } } });
    const encoded = {
      'image/png': await base().png().toBuffer(),
      'image/jpeg': await base().jpeg().toBuffer(),
      'image/jpeg progressive': await base().jpeg({ progressive: true }).toBuffer(),
      'image/webp': await base().webp().toBuffer(),
      'image/webp lossless': await base().webp({ lossless: true }).toBuffer(),
      'image/gif': await base().gif().toBuffer(),
    };
    for (const [label, bytes] of Object.entries(encoded)) {
      expect(readImageHeader(bytes), label).toEqual({ mediaType: label.split(' ')[0], width: 37, height: 21 });
    }
  });

  it('reads an extended WebP (VP8X, as written for lossy images with alpha) from its canvas size', async () => {
    const withAlpha = await sharp({ create: { width: 30, height: 20, channels: 4, background: { r: 255, g: 0, b: 0, alpha: 0.5 } } })
      .webp()
      .toBuffer();
    expect(withAlpha.subarray(12, 16).toString('latin1')).toBe('VP8X');
    expect(readImageHeader(withAlpha)).toEqual({ mediaType: 'image/webp', width: 30, height: 20 });
  });

  it.each([
    ['PNG IHDR', pngHeader(12000, 12000), 'image/png'],
    ['a complete 1-bit PNG', blackPng(12000, 12000), 'image/png'],
    ['JPEG SOF0', jpegHeader(12000, 12000), 'image/jpeg'],
    ['JPEG SOF2 (progressive)', jpegHeader(12000, 12000, 0xc2), 'image/jpeg'],
    ['WebP VP8', webpVp8Header(12000, 12000), 'image/webp'],
    ['WebP VP8L', webpVp8lHeader(12000, 12000), 'image/webp'],
    ['WebP VP8X', webpVp8xHeader(12000, 12000), 'image/webp'],
    ['GIF logical screen', gifHeader({ width: 12000, height: 12000 }), 'image/gif'],
  ])('reads a hand-built %s declaring 12000×12000', (_label, bytes, mediaType) => {
    expect(readImageHeader(bytes)).toEqual({ mediaType, width: 12000, height: 12000 });
  });

  it('agrees with sharp on the hand-built headers', async () => {
    for (const bytes of [pngHeader(9000, 7000), jpegHeader(9000, 7000), webpVp8lHeader(9000, 7000), webpVp8Header(9000, 7000)]) {
      const { width, height } = await sharp(bytes, { limitInputPixels: false }).metadata();
      expect(readImageHeader(bytes)).toMatchObject({ width, height });
    }
  });

  it('takes the largest JPEG frame when a file holds several, skipping APP segments that look like markers', () => {
    // jpegHeader: SOI (2 bytes), APP0 (18), SOF (19), SOS, EOI.
    const sof = (width: number, height: number, marker: number) => jpegHeader(width, height, marker).subarray(20, 39);
    const scanAndEnd = jpegHeader(1, 1).subarray(39);
    // An APP1 segment whose payload holds the bytes of a SOF marker: skipped by its length.
    const app1 = Buffer.from([0xff, 0xe1, 0x00, 0x0b, 0xff, 0xc0, 0x00, 0x11, 8, 0xff, 0xff, 0xff, 0xff]);
    const both = Buffer.concat([Buffer.from([0xff, 0xd8]), app1, sof(100, 100, 0xc0), sof(10000, 9000, 0xc1), scanAndEnd]);
    expect(readImageHeader(both)).toEqual({ mediaType: 'image/jpeg', width: 10000, height: 9000 });
  });

  it('grows a GIF to cover a frame that reaches past its logical screen', () => {
    const bytes = gifHeader({ width: 10, height: 10 }, { left: 5000, top: 0, width: 9000, height: 8000 });
    expect(readImageHeader(bytes)).toEqual({ mediaType: 'image/gif', width: 14000, height: 8000 });
  });

  it.each([
    ['a PNG cut inside IHDR', pngHeader(10, 10).subarray(0, 20)],
    ['a PNG whose first chunk is not IHDR', Buffer.concat([pngHeader(10, 10).subarray(0, 12), Buffer.from('IDAT'), Buffer.alloc(20)])],
    ['a PNG declaring 0 rows', pngHeader(10, 0)],
    ['a JPEG with no frame header before the scan', Buffer.from([0xff, 0xd8, 0xff, 0xda, 0x00, 0x02, 0xff, 0xd9])],
    ['a JPEG cut inside SOF', jpegHeader(10, 10).subarray(0, 26)],
    ['a JPEG that ends before any frame header', jpegHeader(10, 10).subarray(0, 22)],
    ['a JPEG whose height is deferred to a DNL marker', jpegHeader(10, 0)],
    ['a JPEG with garbage between segments', Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x04, 0, 0, 0x12, 0x34, 0xff, 0xc0])],
    ['a WebP cut after the chunk header', webpVp8Header(10, 10).subarray(0, 24)],
    ['a WebP VP8 without its start code', Buffer.concat([webpVp8Header(10, 10).subarray(0, 23), Buffer.alloc(10)])],
    ['a WebP with an unknown first chunk', Buffer.concat([Buffer.from('RIFF\0\0\0\0WEBPALPH', 'latin1'), Buffer.alloc(20)])],
    ['a GIF cut inside its header', gifHeader({ width: 10, height: 10 }).subarray(0, 10)],
    ['no image at all', Buffer.from('just some text, long enough to look at')],
  ])('reads nothing from %s', (_label, bytes) => {
    expect(readImageHeader(bytes)).toBeUndefined();
  });
});
