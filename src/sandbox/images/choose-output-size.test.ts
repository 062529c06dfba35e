import { describe, expect, it } from 'vitest';
import { checkRequestedSize, chooseOutputSize, fitWithinMaxSide, MAX_SIDE, sizeForAspectRatio } from './choose-output-size.js';

describe('chooseOutputSize', () => {
  it('prefers the requested size, then the aspect ratio, then the fallback', () => {
    expect(chooseOutputSize({ size: { width: 300, height: 200 }, aspectRatio: '16:9' })).toEqual({ width: 300, height: 200 });
    expect(chooseOutputSize({ aspectRatio: '1:1' })).toEqual({ width: 1024, height: 1024 });
    expect(chooseOutputSize({}, { width: 640, height: 480 })).toEqual({ width: 640, height: 480 });
    expect(chooseOutputSize({})).toEqual({ width: 1024, height: 1024 });
  });

  it('finding 3: scales an input-derived fallback down to at most 4096 on its longer side, keeping the ratio', () => {
    expect(chooseOutputSize({}, { width: 7000, height: 7000 })).toEqual({ width: 4096, height: 4096 });
    expect(chooseOutputSize({}, { width: 8192, height: 2048 })).toEqual({ width: 4096, height: 1024 });
    expect(chooseOutputSize({}, { width: 3000, height: 12000 })).toEqual({ width: 1024, height: 4096 });
    expect(chooseOutputSize({}, { width: 4096, height: 100 })).toEqual({ width: 4096, height: 100 });
  });

  it('derives about a megapixel in multiples of 64 from a ratio', () => {
    // 16:9 → width √(1048576·16/9) ≈ 1365.3 → 1344; height 1365.3·9/16 ≈ 768
    expect(sizeForAspectRatio('16:9')).toEqual({ width: 1344, height: 768 });
    // 9:16 mirrors it
    expect(sizeForAspectRatio('9:16')).toEqual({ width: 768, height: 1344 });
    expect(sizeForAspectRatio('3x2')).toEqual({ width: 1280, height: 832 });
    expect(sizeForAspectRatio('wide')).toBeUndefined();
    expect(sizeForAspectRatio('0:1')).toBeUndefined();
  });
});

describe('sandbox image size bounds', () => {
  it('refuses a requested size beyond the sandbox bounds with a 400', () => {
    for (const size of [
      { width: 100_000, height: 64 },
      { width: 0, height: 64 },
      { width: 64.5, height: 64 },
    ]) {
      expect(() => chooseOutputSize({ size })).toThrow(expect.objectContaining({ kind: 'invalid_request', param: 'size' }));
    }
    expect(checkRequestedSize({ width: MAX_SIDE, height: 1 })).toEqual({ width: MAX_SIDE, height: 1 });
  });

  it('scales an input image’s own size down to fit, keeping its ratio', () => {
    expect(chooseOutputSize({}, { width: 16_384, height: 8_192 })).toEqual({ width: 4096, height: 2048 });
    expect(fitWithinMaxSide({ width: 100_000, height: 10 })).toEqual({ width: 4096, height: 1 });
    expect(fitWithinMaxSide({ width: 640, height: 480 })).toEqual({ width: 640, height: 480 });
  });
});
