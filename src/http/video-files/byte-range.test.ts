import { describe, expect, it } from 'vitest';
import { contentRange, planByteRange } from './byte-range.js';

const partial = (start: number, end: number) => ({ kind: 'partial', range: { start, end } });

describe('planByteRange', () => {
  it('serves the whole file without a Range header', () => {
    expect(planByteRange(undefined, 1000)).toEqual({ kind: 'whole' });
  });

  it('reads a-b, a- and -n, clamping past the end', () => {
    expect(planByteRange('bytes=0-99', 1000)).toEqual(partial(0, 99));
    expect(planByteRange('bytes=990-2000', 1000)).toEqual(partial(990, 999));
    expect(planByteRange('bytes=500-', 1000)).toEqual(partial(500, 999));
    expect(planByteRange('bytes=-100', 1000)).toEqual(partial(900, 999));
    expect(planByteRange('bytes=-5000', 1000)).toEqual(partial(0, 999));
    expect(planByteRange('bytes=999-999', 1000)).toEqual(partial(999, 999));
  });

  it('takes the unit case-insensitively and spaces around the spec', () => {
    expect(planByteRange('Bytes = 1-2 ', 10)).toEqual(partial(1, 2));
    expect(planByteRange('bytes=1-2, ', 10)).toEqual(partial(1, 2));
  });

  it('answers several ranges with the whole file', () => {
    expect(planByteRange('bytes=0-1,5-6', 10)).toEqual({ kind: 'whole' });
    expect(planByteRange('bytes=0-1, -2', 10)).toEqual({ kind: 'whole' });
  });

  it('is unsatisfiable past the end, for an empty suffix and for an empty file', () => {
    expect(planByteRange('bytes=1000-', 1000)).toEqual({ kind: 'unsatisfiable' });
    expect(planByteRange('bytes=1000-1001', 1000)).toEqual({ kind: 'unsatisfiable' });
    expect(planByteRange('bytes=-0', 1000)).toEqual({ kind: 'unsatisfiable' });
    expect(planByteRange('bytes=0-', 0)).toEqual({ kind: 'unsatisfiable' });
    expect(planByteRange('bytes=-1', 0)).toEqual({ kind: 'unsatisfiable' });
    expect(planByteRange(`bytes=${'9'.repeat(40)}-`, 1000)).toEqual({ kind: 'unsatisfiable' });
  });

  it('ignores invalid headers and other units (the whole file)', () => {
    for (const header of [
      'bytes=5-1',
      'bytes=-',
      'bytes=a-b',
      'bytes=1-2-3',
      'items=0-1',
      'bytes',
      '0-1',
      'bytes=',
      'bytes=+1-2',
      `bytes=${'1'.repeat(2000)}-`,
    ]) {
      expect(planByteRange(header, 1000), header).toEqual({ kind: 'whole' });
    }
  });

  it('clamps an enormous last position and an enormous suffix', () => {
    expect(planByteRange(`bytes=10-${'9'.repeat(30)}`, 1000)).toEqual(partial(10, 999));
    expect(planByteRange(`bytes=-${'9'.repeat(30)}`, 1000)).toEqual(partial(0, 999));
  });
});

describe('contentRange', () => {
  it('writes bytes first-last/size', () => {
    expect(contentRange({ start: 0, end: 99 }, 1000)).toBe('bytes 0-99/1000');
  });
});
