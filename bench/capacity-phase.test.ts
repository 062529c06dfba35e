import { describe, expect, it } from 'vitest';
import { firstDifference } from './capacity-phase.js';

describe('firstDifference', () => {
  it('is undefined for equal bytes', () => {
    expect(firstDifference(Buffer.from('data: x\n\n'), Buffer.from('data: x\n\n'))).toBeUndefined();
  });

  it('points at the first byte that differs, with context from both sides', () => {
    const expected = Buffer.from('data: {"choices":[]}\n\n');
    const actual = Buffer.from('data: {"choices":[],"usage":null}\n\n');
    expect(firstDifference(expected, actual)).toBe(
      '35 bytes instead of 22; from byte 19: expected "data: {\\"choices\\":[]}\\n\\n", got "data: {\\"choices\\":[],\\"usage\\":null}\\n\\n"',
    );
  });
});
