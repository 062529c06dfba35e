import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { GatewayError } from './errors.js';
import { decodeBase64, decodeImageString, sniffImageType, toImageInput } from './image-bytes.js';

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
