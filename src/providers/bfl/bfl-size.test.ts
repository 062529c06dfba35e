import { describe, expect, it } from 'vitest';
import { aspectRatioForSize, roundToBflSize, sizeForAspectRatio } from './bfl-size.js';

describe('roundToBflSize', () => {
  it('keeps sizes BFL accepts', () => {
    expect(roundToBflSize({ width: 1024, height: 1024 })).toEqual({ width: 1024, height: 1024 });
    expect(roundToBflSize({ width: 512, height: 768 })).toEqual({ width: 512, height: 768 });
  });

  it('rounds each side to the nearest multiple of 32', () => {
    // 1000/32 = 31.25 → 992; 750/32 = 23.4 → 736
    expect(roundToBflSize({ width: 1000, height: 750 })).toEqual({ width: 992, height: 736 });
    expect(roundToBflSize({ width: 1010, height: 1010 })).toEqual({ width: 1024, height: 1024 });
  });

  it('scales sizes above 1440 down, keeping the aspect ratio', () => {
    // 1792x1024 × (1440/1792) = 1440 x 822.9 → 1440 x 832
    expect(roundToBflSize({ width: 1792, height: 1024 })).toEqual({ width: 1440, height: 832 });
    expect(roundToBflSize({ width: 2048, height: 2048 })).toEqual({ width: 1440, height: 1440 });
  });

  it('scales sizes below 256 up', () => {
    expect(roundToBflSize({ width: 100, height: 100 })).toEqual({ width: 256, height: 256 });
    expect(roundToBflSize({ width: 128, height: 256 })).toEqual({ width: 256, height: 512 });
  });

  it('clamps extreme ratios into 256–1440', () => {
    expect(roundToBflSize({ width: 3000, height: 300 })).toEqual({ width: 1440, height: 256 });
  });
});

describe('sizeForAspectRatio', () => {
  it('gives about one megapixel in the ratio', () => {
    expect(sizeForAspectRatio('1:1')).toEqual({ width: 1024, height: 1024 });
    // sqrt(1048576 × 16/9) = 1365.3 → 1376; sqrt(1048576 × 9/16) = 768
    expect(sizeForAspectRatio('16:9')).toEqual({ width: 1376, height: 768 });
  });

  it('ignores what is not a ratio', () => {
    expect(sizeForAspectRatio('wide')).toBeUndefined();
    expect(sizeForAspectRatio('0:1')).toBeUndefined();
  });
});

describe('aspectRatioForSize', () => {
  it('reduces the size to its ratio', () => {
    expect(aspectRatioForSize({ width: 1024, height: 768 })).toBe('4:3');
    expect(aspectRatioForSize({ width: 1792, height: 1024 })).toBe('7:4');
    expect(aspectRatioForSize({ width: 1024, height: 1024 })).toBe('1:1');
  });

  it('keeps within 21:9 and 9:21', () => {
    expect(aspectRatioForSize({ width: 3000, height: 1000 })).toBe('21:9');
    expect(aspectRatioForSize({ width: 1000, height: 3000 })).toBe('9:21');
  });
});
