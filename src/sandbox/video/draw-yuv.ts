/**
 * Drawing straight into a frame's planes: filled rectangles and block-font text. Rectangles
 * are clipped to the visible picture; chroma covers every 2×2 cell the rectangle touches.
 */
import { GLYPH_ADVANCE, GLYPH_HEIGHT, GLYPH_WIDTH, glyphDot } from './block-font.js';
import { chromaStride, lumaStride, type YuvColour, type YuvFrame } from './yuv-frame.js';

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

export function fillRect(frame: YuvFrame, rect: Rect, colour: YuvColour): void {
  const x0 = Math.max(0, Math.round(rect.x));
  const y0 = Math.max(0, Math.round(rect.y));
  const x1 = Math.min(frame.width, Math.round(rect.x + rect.width));
  const y1 = Math.min(frame.height, Math.round(rect.y + rect.height));
  if (x1 <= x0 || y1 <= y0) return;
  const ys = lumaStride(frame);
  for (let row = y0; row < y1; row++) frame.y.fill(colour.y, row * ys + x0, row * ys + x1);
  const cs = chromaStride(frame);
  const cx0 = x0 >> 1;
  const cx1 = (x1 + 1) >> 1;
  for (let row = y0 >> 1; row < (y1 + 1) >> 1; row++) {
    frame.u.fill(colour.u, row * cs + cx0, row * cs + cx1);
    frame.v.fill(colour.v, row * cs + cx0, row * cs + cx1);
  }
}

/** Writes `text` with its top-left corner at (`x`, `y`), each font dot `scale` pixels square. */
export function drawText(frame: YuvFrame, text: string, x: number, y: number, scale: number, colour: YuvColour): void {
  for (let i = 0; i < text.length; i++) {
    const left = x + i * GLYPH_ADVANCE * scale;
    for (let row = 0; row < GLYPH_HEIGHT; row++) {
      for (let column = 0; column < GLYPH_WIDTH; column++) {
        if (glyphDot(text[i], column, row)) fillRect(frame, { x: left + column * scale, y: y + row * scale, width: scale, height: scale }, colour);
      }
    }
  }
}
