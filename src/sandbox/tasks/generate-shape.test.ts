import { describe, expect, it } from 'vitest';
import { chooseGenerateShape, GENERATE_PIXEL_BUDGET } from './generate-shape.js';

function shape(request: { count?: number; width?: number; height?: number }) {
  const warnings: string[] = [];
  return { ...chooseGenerateShape(request, (m) => warnings.push(m)), warnings };
}

describe('chooseGenerateShape', () => {
  it('defaults to one 1024×1024 picture, silently', () => {
    expect(shape({})).toEqual({ count: 1, size: { width: 1024, height: 1024 }, warnings: [] });
  });

  it('keeps what fits', () => {
    expect(shape({ count: 4, width: 1024, height: 1024 })).toEqual({ count: 4, size: { width: 1024, height: 1024 }, warnings: [] });
    expect(shape({ count: 1, width: 2048, height: 2048 })).toEqual({ count: 1, size: { width: 2048, height: 2048 }, warnings: [] });
  });

  it('clamps each side to 64–2048 and the count to 1–4, with warnings', () => {
    const small = shape({ width: 10, height: 3000, count: 0 });
    expect(small.count).toBe(1);
    expect(small.size).toEqual({ width: 64, height: 2048 });
    expect(small.warnings).toHaveLength(2);
  });

  it('scales all pictures down evenly to the pixel budget', () => {
    const big = shape({ count: 4, width: 2048, height: 1024 });
    expect(big.count).toBe(4);
    expect(big.count * big.size.width * big.size.height).toBeLessThanOrEqual(GENERATE_PIXEL_BUDGET);
    expect(big.size.width / big.size.height).toBeCloseTo(2, 1);
    expect(big.warnings.join(' ')).toContain('instead of 2048x1024');
  });
});
