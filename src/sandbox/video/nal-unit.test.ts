import { describe, expect, it } from 'vitest';
import { createPrng } from '../shared/prng.js';
import { escapeRbsp, NAL_SPS, nalUnit } from './nal-unit.js';

/** What a decoder does: drops the 03 after two zero bytes. */
function removeEmulationPrevention(ebsp: Uint8Array): number[] {
  const out: number[] = [];
  let zeros = 0;
  for (const byte of ebsp) {
    if (zeros >= 2 && byte === 3) {
      zeros = 0;
      continue;
    }
    out.push(byte);
    zeros = byte === 0 ? zeros + 1 : 0;
  }
  return out;
}

function hasStartCodeEmulation(ebsp: Uint8Array): boolean {
  for (let i = 2; i < ebsp.length; i++) if (ebsp[i - 2] === 0 && ebsp[i - 1] === 0 && ebsp[i] <= 2) return true;
  return false;
}

describe('emulation prevention', () => {
  it('inserts 03 before a byte of 0 to 3 that follows two zero bytes', () => {
    expect(Array.from(escapeRbsp(Uint8Array.of(0, 0, 0)))).toEqual([0, 0, 3, 0]);
    expect(Array.from(escapeRbsp(Uint8Array.of(0, 0, 1)))).toEqual([0, 0, 3, 1]);
    expect(Array.from(escapeRbsp(Uint8Array.of(0, 0, 2)))).toEqual([0, 0, 3, 2]);
    expect(Array.from(escapeRbsp(Uint8Array.of(0, 0, 3)))).toEqual([0, 0, 3, 3]);
    expect(Array.from(escapeRbsp(Uint8Array.of(0, 0, 0, 0, 0, 0)))).toEqual([0, 0, 3, 0, 0, 3, 0, 0]);
    expect(Array.from(escapeRbsp(Uint8Array.of(7, 0, 0, 4, 0, 1)))).toEqual([7, 0, 0, 4, 0, 1]);
  });

  it('leaves any byte string recoverable and free of start code prefixes', () => {
    const rng = createPrng(7);
    for (let round = 0; round < 200; round++) {
      // Mostly zeros and small values, where the escapes happen.
      const rbsp = Uint8Array.from({ length: rng.int(0, 64) }, () => (rng.chance(0.6) ? 0 : rng.int(1, 5)));
      const ebsp = escapeRbsp(rbsp);
      expect(hasStartCodeEmulation(ebsp)).toBe(false);
      expect(removeEmulationPrevention(ebsp)).toEqual(Array.from(rbsp));
    }
  });

  it('puts the reference priority and type in the header byte', () => {
    const unit = nalUnit(NAL_SPS, 3, Uint8Array.of(0x42, 0, 0, 1));
    expect(Array.from(unit)).toEqual([0x67, 0x42, 0, 0, 3, 1]);
  });
});
