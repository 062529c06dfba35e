import { describe, expect, it } from 'vitest';
import { parseMjProgress } from './parse-mj-progress.js';

describe('parseMjProgress', () => {
  it('reads "NN%" as a share', () => {
    expect(parseMjProgress('0%')).toBe(0);
    expect(parseMjProgress('46%')).toBe(0.46);
    expect(parseMjProgress('100%')).toBe(1);
    expect(parseMjProgress(' 12.5 % ')).toBe(0.125);
  });

  it('caps at 1 and gives up on empty or garbage text', () => {
    expect(parseMjProgress('250%')).toBe(1);
    for (const value of ['', '46', 'abc%', '-5%', '1e3%', `${'9'.repeat(40)}%`, 46, null, undefined]) expect(parseMjProgress(value)).toBeUndefined();
  });
});
