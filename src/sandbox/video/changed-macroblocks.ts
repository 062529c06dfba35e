/**
 * Which macroblocks differ between two frames of the same size, compared four bytes at a time
 * (every plane row is a multiple of 8 bytes and starts a new buffer). A row of macroblocks that
 * did not change at all (most of them) is passed over in one sweep.
 */
import { chromaStride, lumaStride, type YuvFrame } from './yuv-frame.js';

function words(plane: Uint8Array): Uint32Array {
  if (plane.byteOffset % 4 !== 0 || plane.length % 4 !== 0) throw new RangeError('planes must be word-aligned');
  return new Uint32Array(plane.buffer, plane.byteOffset, plane.length / 4);
}

function sameWords(a: Uint32Array, b: Uint32Array, start: number, count: number): boolean {
  for (let i = start; i < start + count; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** One flag per macroblock, row by row: 1 where `current` differs from `previous`. */
export function changedMacroblocks(previous: YuvFrame, current: YuvFrame): Uint8Array {
  if (previous.mbWidth !== current.mbWidth || previous.mbHeight !== current.mbHeight) throw new RangeError('frames differ in size');
  const { mbWidth, mbHeight } = current;
  const flags = new Uint8Array(mbWidth * mbHeight);
  const [py, pu, pv] = [words(previous.y), words(previous.u), words(previous.v)];
  const [cy, cu, cv] = [words(current.y), words(current.u), words(current.v)];
  // Strides in words.
  const ys = lumaStride(current) / 4;
  const cs = chromaStride(current) / 4;
  for (let mbY = 0; mbY < mbHeight; mbY++) {
    const lumaBand = mbY * 16 * ys;
    const chromaBand = mbY * 8 * cs;
    if (sameWords(py, cy, lumaBand, 16 * ys) && sameWords(pu, cu, chromaBand, 8 * cs) && sameWords(pv, cv, chromaBand, 8 * cs)) continue;
    for (let mbX = 0; mbX < mbWidth; mbX++) {
      let same = true;
      for (let row = 0; same && row < 16; row++) same = sameWords(py, cy, lumaBand + row * ys + mbX * 4, 4);
      for (let row = 0; same && row < 8; row++) {
        const at = chromaBand + row * cs + mbX * 2;
        same = sameWords(pu, cu, at, 2) && sameWords(pv, cv, at, 2);
      }
      if (!same) flags[mbY * mbWidth + mbX] = 1;
    }
  }
  return flags;
}
