import { describe, expect, it } from 'vitest';
import { decodeFloat32Base64, encodeFloat32Base64 } from './openai-float32-base64.js';

describe('encodeFloat32Base64', () => {
  it('writes little-endian IEEE-754 float32 bytes', () => {
    const bytes = Buffer.from(encodeFloat32Base64([1, -2, 0.5, 0.1]), 'base64');
    // 1.0f = 0x3f800000, -2.0f = 0xc0000000, 0.5f = 0x3f000000, 0.1f = 0x3dcccccd; lowest byte first.
    expect([...bytes]).toEqual([0x00, 0x00, 0x80, 0x3f, 0x00, 0x00, 0x00, 0xc0, 0x00, 0x00, 0x00, 0x3f, 0xcd, 0xcc, 0xcc, 0x3d]);
  });

  it('encodes an empty vector as an empty string', () => {
    expect(encodeFloat32Base64([])).toBe('');
  });
});

describe('decodeFloat32Base64', () => {
  it('reads what a Float32Array holds', () => {
    const source = new Float32Array([0.25, -0.75, 3]);
    const text = Buffer.from(source.buffer).toString('base64');
    expect(decodeFloat32Base64(text)).toEqual([0.25, -0.75, 3]);
  });

  it('refuses a byte count that is not a multiple of four', () => {
    expect(decodeFloat32Base64(Buffer.from([1, 2, 3]).toString('base64'))).toBeUndefined();
  });
});
