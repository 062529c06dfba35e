import { describe, expect, it } from 'vitest';
import { BitWriter } from './bit-writer.js';

/** The bits written, as a string of 0s and 1s, before the RBSP trailing bits. */
function bitsOf(write: (w: BitWriter) => void): string {
  const w = new BitWriter();
  write(w);
  const bytes = w.finish();
  const bits = Array.from(bytes, (b) => b.toString(2).padStart(8, '0')).join('');
  return bits.slice(0, bits.lastIndexOf('1'));
}

describe('BitWriter', () => {
  it('writes unsigned Exp-Golomb codes as the standard tabulates them', () => {
    const table: Array<[number, string]> = [
      [0, '1'],
      [1, '010'],
      [2, '011'],
      [3, '00100'],
      [6, '00111'],
      [7, '0001000'],
      [25, '000011010'],
      [30, '000011111'],
      [254, '000000011111111'],
    ];
    for (const [value, code] of table) expect(bitsOf((w) => w.ue(value))).toBe(code);
  });

  it('maps signed values 1, -1, 2, -2 to codes 1, 2, 3, 4', () => {
    const table: Array<[number, string]> = [
      [0, '1'],
      [1, '010'],
      [-1, '011'],
      [2, '00100'],
      [-2, '00101'],
      [3, '00110'],
    ];
    for (const [value, code] of table) expect(bitsOf((w) => w.se(value))).toBe(code);
  });

  it('packs fixed-width fields most significant bit first and ends with a stop bit and zero padding', () => {
    const w = new BitWriter();
    w.u(8, 0x42);
    w.u(3, 0b101);
    w.flag(true);
    expect(Array.from(w.finish())).toEqual([0x42, 0b1011_1000]);
  });

  it('aligns with zeros and copies whole bytes only when aligned', () => {
    const w = new BitWriter(1);
    w.u(2, 0b11);
    expect(() => w.bytes(Uint8Array.of(1))).toThrow(/aligned/);
    w.alignWithZeros();
    w.bytes(new Uint8Array(40).fill(0x80));
    const out = w.finish();
    expect(out[0]).toBe(0b1100_0000);
    expect(out.length).toBe(42);
    expect(out[41]).toBe(0x80);
  });

  it('refuses values that do not fit their field', () => {
    const w = new BitWriter();
    expect(() => w.u(3, 8)).toThrow(RangeError);
    expect(() => w.ue(-1)).toThrow(RangeError);
    expect(() => w.se(1.5)).toThrow(RangeError);
  });
});
