import { describe, expect, it } from 'vitest';
import { drawRandomBytes, randomHex } from './random-pool.js';

describe('drawRandomBytes', () => {
  it('hands out fresh bytes across refills: no two 16-byte draws of 1,000 are equal', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 1000; i++) seen.add(drawRandomBytes(16).toString('hex'));
    expect(seen.size).toBe(1000);
  });

  it('gives the asked length, and hex of twice the byte length', () => {
    expect(drawRandomBytes(4096)).toHaveLength(4096);
    expect(randomHex(24)).toMatch(/^[0-9a-f]{48}$/);
    expect(() => drawRandomBytes(4097)).toThrow(RangeError);
  });
});
