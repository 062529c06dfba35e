import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { GatewayError } from './errors.js';
import { blackPng, gifHeader, jpegHeader, pngHeader, webpVp8Header, webpVp8lHeader, webpVp8xHeader } from '../../test/helpers/image-headers.js';
import { DEFAULT_MAX_IMAGE_PIXELS, decodeBase64, decodeImageString, sniffImageType, toImageInput } from './image-bytes.js';

const red = { r: 200, g: 10, b: 10 };
let png: Buffer;
let jpeg: Buffer;
let webp: Buffer;
let gif: Buffer;

beforeAll(async () => {
  const base = () => sharp({ create: { width: 8, height: 6, channels: 3, background: red } });
  [png, jpeg, webp, gif] = await Promise.all([base().png().toBuffer(), base().jpeg().toBuffer(), base().webp().toBuffer(), base().gif().toBuffer()]);
});

function rejection(run: () => unknown): GatewayError {
  try {
    run();
  } catch (error) {
    if (error instanceof GatewayError) return error;
    throw error;
  }
  throw new Error('expected a GatewayError');
}

describe('sniffImageType', () => {
  it('recognises PNG, JPEG, WebP and GIF from their magic bytes', () => {
    expect(sniffImageType(png)).toBe('image/png');
    expect(sniffImageType(jpeg)).toBe('image/jpeg');
    expect(sniffImageType(webp)).toBe('image/webp');
    expect(sniffImageType(gif)).toBe('image/gif');
  });

  it('recognises nothing else', () => {
    expect(sniffImageType(Buffer.from('hello, this is a text file\n'))).toBeUndefined();
    expect(sniffImageType(Buffer.from('%PDF-1.7\n'))).toBeUndefined();
    expect(sniffImageType(Buffer.from([0x89, 0x50, 0x4e]))).toBeUndefined();
    // RIFF container that is not WebP (a WAV file header)
    expect(sniffImageType(Buffer.from('RIFF\x24\x00\x00\x00WAVEfmt ', 'latin1'))).toBeUndefined();
    expect(sniffImageType(new Uint8Array(0))).toBeUndefined();
  });
});

describe('toImageInput', () => {
  it('labels bytes with the sniffed type, whatever the file name says', () => {
    const image = toImageInput(jpeg, 'image', { filename: 'photo.png' });
    expect(image.mediaType).toBe('image/jpeg');
    expect(image.filename).toBe('photo.png');
    expect(Buffer.from(image.data).equals(jpeg)).toBe(true);
  });

  it('refuses empty input, non-images and images over the limit, naming the param', () => {
    const empty = rejection(() => toImageInput(new Uint8Array(0), 'mask'));
    expect([empty.status, empty.param, empty.message]).toEqual([400, 'mask', 'mask: the image is empty (0 bytes)']);
    const text = rejection(() => toImageInput(Buffer.from('just text'), 'image[1]'));
    expect([text.status, text.param, text.message]).toEqual([400, 'image[1]', 'image[1]: unsupported image type; expected a PNG, JPEG, WebP or GIF image']);
    const large = rejection(() => toImageInput(png, 'image', { maxBytes: 10 }));
    expect([large.status, large.kind, large.param]).toEqual([413, 'request_too_large', 'image']);
  });
});

describe('toImageInput: the pixel cap (finding 3)', () => {
  it('finding 3: a real 12000×12000 PNG of a few kilobytes is refused from its header', () => {
    const bomb = blackPng(12000, 12000);
    expect(bomb.length).toBeLessThan(100_000);
    const error = rejection(() => toImageInput(bomb, 'image'));
    expect([error.status, error.kind, error.param]).toEqual([400, 'invalid_request', 'image']);
    expect(error.message).toBe('image: the image is 12000×12000 pixels, more than the limit of 50000000 pixels (50 megapixels); scale it down');
  });

  it.each([
    ['PNG', pngHeader(8000, 8000)],
    ['JPEG', jpegHeader(8000, 8000)],
    ['progressive JPEG', jpegHeader(8000, 8000, 0xc2)],
    ['WebP (VP8)', webpVp8Header(8000, 8000)],
    ['WebP (VP8L)', webpVp8lHeader(8000, 8000)],
    ['WebP (VP8X)', webpVp8xHeader(8000, 8000)],
    ['GIF', gifHeader({ width: 8000, height: 8000 })],
    ['GIF whose frame is larger than its screen', gifHeader({ width: 16, height: 16 }, { left: 0, top: 0, width: 8000, height: 8000 })],
  ])('finding 3: an 8000×8000 %s is refused, naming the param', (_format, bytes) => {
    const error = rejection(() => toImageInput(bytes, 'base64Array[0]'));
    expect([error.status, error.param]).toEqual([400, 'base64Array[0]']);
    expect(error.message).toContain('the image is 8000×8000 pixels, more than the limit');
  });

  it('admits an 8K frame and a 48-megapixel photo under the default cap, and labels the image with its size', () => {
    expect(DEFAULT_MAX_IMAGE_PIXELS).toBe(50_000_000);
    expect(toImageInput(jpegHeader(7680, 4320), 'image')).toMatchObject({ mediaType: 'image/jpeg', width: 7680, height: 4320 });
    expect(toImageInput(jpegHeader(8064, 6048), 'image')).toMatchObject({ width: 8064, height: 6048 });
  });

  it('uses the configured cap: exactly at it passes, one pixel row more is refused', () => {
    expect(toImageInput(pngHeader(1000, 1000), 'image', { maxPixels: 1_000_000 })).toMatchObject({ width: 1000, height: 1000 });
    const error = rejection(() => toImageInput(pngHeader(1000, 1001), 'images[1]', { maxPixels: 1_000_000 }));
    expect([error.status, error.param, error.message]).toEqual([
      400,
      'images[1]',
      'images[1]: the image is 1000×1001 pixels, more than the limit of 1000000 pixels (1 megapixels); scale it down',
    ]);
  });

  it('refuses an image whose header cannot be read', () => {
    const error = rejection(() => toImageInput(pngHeader(10, 10).subarray(0, 20), 'mask'));
    expect([error.status, error.param, error.message]).toEqual([
      400,
      'mask',
      "mask: the image's header is damaged or incomplete, so its dimensions cannot be read",
    ]);
  });

  it('applies the cap to base64 and data URLs too', () => {
    const dataUrl = `data:image/png;base64,${blackPng(12000, 12000).toString('base64')}`;
    expect(rejection(() => decodeImageString(dataUrl, 'image_url')).param).toBe('image_url');
    expect(rejection(() => decodeImageString(jpegHeader(9000, 9000).toString('base64'), 'image', { maxPixels: 80_000_000 })).message).toContain(
      'limit of 80000000 pixels',
    );
  });
});

describe('decodeBase64', () => {
  it('decodes standard and URL-safe base64, ignoring line breaks', () => {
    expect(Buffer.from(decodeBase64('aGk/Pz8+', 'x')).toString('latin1')).toBe('hi???>');
    expect(Buffer.from(decodeBase64('aGk_Pz8-', 'x')).toString('latin1')).toBe('hi???>');
    expect(Buffer.from(decodeBase64('aGVs\r\nbG8=', 'x')).toString('latin1')).toBe('hello');
    expect(Buffer.from(decodeBase64('aGVsbG8', 'x')).toString('latin1')).toBe('hello');
  });

  it.each([
    ['characters outside the alphabet', 'aGVs*bG8='],
    ['padding in the middle', 'aG=VsbG8'],
    ['a length that cannot be base64', 'aGVsb'],
    ['padding on a length that is not a multiple of 4', 'aGVsbG8=='],
    ['mixed alphabets', 'aGk_Pz8+'],
  ])('refuses %s', (_label, value) => {
    const error = rejection(() => decodeBase64(value, 'image'));
    expect([error.status, error.param, error.message]).toEqual([400, 'image', 'image: invalid base64 data']);
  });
});

describe('decodeImageString', () => {
  it('decodes a data URL and bare base64 into the same image', () => {
    const fromDataUrl = decodeImageString(`data:image/png;base64,${png.toString('base64')}`, 'image');
    const fromBare = decodeImageString(png.toString('base64'), 'image');
    expect(fromDataUrl.mediaType).toBe('image/png');
    expect(fromBare.mediaType).toBe('image/png');
    expect(Buffer.from(fromDataUrl.data).equals(png)).toBe(true);
    expect(Buffer.from(fromBare.data).equals(png)).toBe(true);
  });

  it('trusts the bytes over the declared type', () => {
    expect(decodeImageString(`data:image/png;base64,${webp.toString('base64')}`, 'image').mediaType).toBe('image/webp');
  });

  it('refuses a data URL without base64, an empty one and a text file', () => {
    expect(rejection(() => decodeImageString('data:image/png,abc', 'mask')).param).toBe('mask');
    expect(rejection(() => decodeImageString('data:image/png;base64,', 'mask')).message).toContain('must be base64-encoded and not empty');
    const text = rejection(() => decodeImageString(`data:text/plain;base64,${Buffer.from('a text file').toString('base64')}`, 'images[0].image_url'));
    expect([text.status, text.param]).toEqual([400, 'images[0].image_url']);
    expect(text.message).toContain('unsupported image type');
  });
});
