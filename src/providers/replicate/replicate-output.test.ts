import { describe, expect, it } from 'vitest';
import { seedFromLogs, toProducedImages } from './replicate-output.js';

describe('toProducedImages', () => {
  it('takes a list of delivery URLs, media type from the extension', () => {
    expect(toProducedImages(['https://replicate.delivery/a/out-0.webp', 'https://replicate.delivery/a/out-1.webp'], 'Using seed: 5\n', 'png', 5)).toEqual([
      { url: 'https://replicate.delivery/a/out-0.webp', mediaType: 'image/webp', seed: undefined },
      { url: 'https://replicate.delivery/a/out-1.webp', mediaType: 'image/webp', seed: undefined },
    ]);
  });

  it('takes a single URI, with the seed the logs name', () => {
    expect(toProducedImages('https://replicate.delivery/b/output.png', 'Using seed: 31337\nRunning inference\n', 'png', undefined)).toEqual([
      { url: 'https://replicate.delivery/b/output.png', mediaType: 'image/png', seed: 31337 },
    ]);
  });

  it('decodes data URIs into bytes', () => {
    const [image] = toProducedImages('data:image/png;base64,iVBORw0KGgo=', '', 'png', 12);
    expect(image.mediaType).toBe('image/png');
    expect(image.seed).toBe(12);
    expect(Array.from(image.data!)).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  });

  it('falls back on the asked format when the URL has no extension', () => {
    expect(toProducedImages(['https://cdn.example/files/abc'], null, 'jpg', undefined)[0].mediaType).toBe('image/jpeg');
  });

  it('refuses a success without images, or outputs that are not URLs', () => {
    expect(() => toProducedImages(null, '', 'png', undefined)).toThrow('succeeded without an image');
    expect(() => toProducedImages([], '', 'png', undefined)).toThrow('succeeded without an image');
    expect(() => toProducedImages(['not a url'], '', 'png', undefined)).toThrow('not a URL');
  });
});

describe('seedFromLogs', () => {
  it('reads the seed Flux logs', () => {
    expect(seedFromLogs('Using seed: 42\n')).toBe(42);
    expect(seedFromLogs('nothing here')).toBeUndefined();
    expect(seedFromLogs(undefined)).toBeUndefined();
  });
});
