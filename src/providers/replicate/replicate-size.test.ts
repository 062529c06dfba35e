import { describe, expect, it } from 'vitest';
import { nearestStandardRatio, roundToCustomSize } from './replicate-size.js';

describe('nearestStandardRatio', () => {
  it('names exact standard ratios', () => {
    expect(nearestStandardRatio({ width: 1024, height: 1024 })).toBe('1:1');
    expect(nearestStandardRatio({ width: 1024, height: 768 })).toBe('4:3');
    expect(nearestStandardRatio({ width: 768, height: 1024 })).toBe('3:4');
    expect(nearestStandardRatio({ width: 1536, height: 1024 })).toBe('3:2');
  });

  it('picks the closest one otherwise', () => {
    // 1.75 sits nearer 16:9 (1.78) than 3:2 (1.5)
    expect(nearestStandardRatio({ width: 1792, height: 1024 })).toBe('16:9');
    expect(nearestStandardRatio({ width: 1024, height: 1792 })).toBe('9:16');
    expect(nearestStandardRatio({ width: 4000, height: 1000 })).toBe('21:9');
  });
});

describe('roundToCustomSize', () => {
  it('rounds to multiples of 32 within 256–1440, keeping the aspect ratio', () => {
    expect(roundToCustomSize({ width: 1024, height: 1024 })).toEqual({ width: 1024, height: 1024 });
    expect(roundToCustomSize({ width: 1000, height: 750 })).toEqual({ width: 992, height: 736 });
    expect(roundToCustomSize({ width: 1792, height: 1024 })).toEqual({ width: 1440, height: 832 });
    expect(roundToCustomSize({ width: 100, height: 200 })).toEqual({ width: 256, height: 512 });
  });
});
