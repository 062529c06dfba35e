/**
 * NAL units: a one-byte header and the RBSP with emulation prevention, so that no start code
 * prefix (00 00 00, 00 00 01, 00 00 02) appears inside: after two zero bytes, a byte of 0–3 is
 * preceded by 03. MP4 samples carry them length-prefixed, without start codes.
 */

export const NAL_SLICE = 1;
export const NAL_IDR_SLICE = 5;
export const NAL_SPS = 7;
export const NAL_PPS = 8;

/** Inserts emulation prevention bytes (ITU-T H.264 7.4.1). */
export function escapeRbsp(rbsp: Uint8Array): Uint8Array {
  const before: number[] = [];
  let zeros = 0;
  for (let i = 0; i < rbsp.length; i++) {
    const byte = rbsp[i];
    if (zeros >= 2 && byte <= 3) {
      before.push(i);
      zeros = 0;
    }
    zeros = byte === 0 ? zeros + 1 : 0;
  }
  if (before.length === 0) return rbsp;
  const out = new Uint8Array(rbsp.length + before.length);
  let from = 0;
  let at = 0;
  for (const position of before) {
    out.set(rbsp.subarray(from, position), at);
    at += position - from;
    out[at++] = 3;
    from = position;
  }
  out.set(rbsp.subarray(from), at);
  return out;
}

/** `forbidden_zero_bit` 0, `nal_ref_idc` (0–3), `nal_unit_type`, then the escaped RBSP. */
export function nalUnit(type: number, refIdc: number, rbsp: Uint8Array): Uint8Array {
  const payload = escapeRbsp(rbsp);
  const out = new Uint8Array(1 + payload.length);
  out[0] = ((refIdc & 3) << 5) | (type & 0x1f);
  out.set(payload, 1);
  return out;
}
