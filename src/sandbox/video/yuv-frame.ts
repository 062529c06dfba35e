/**
 * A picture in the encoder's own form: 8-bit 4:2:0 planes padded to whole 16×16 macroblocks
 * (the padding repeats the last row and column; the SPS crops it away). Colours are BT.709
 * limited range, as the SPS's VUI says.
 */

export interface YuvFrame {
  /** The visible size (even). */
  width: number;
  height: number;
  mbWidth: number;
  mbHeight: number;
  /** Luma, `mbWidth * 16` per row. */
  y: Uint8Array;
  /** Chroma, `mbWidth * 8` per row. */
  u: Uint8Array;
  v: Uint8Array;
}

/** A colour as the planes store it. */
export interface YuvColour {
  y: number;
  u: number;
  v: number;
}

export function lumaStride(frame: YuvFrame): number {
  return frame.mbWidth * 16;
}

export function chromaStride(frame: YuvFrame): number {
  return frame.mbWidth * 8;
}

function clampByte(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, Math.round(value)));
}

/** BT.709 limited range: Y 16–235, Cb/Cr 16–240 (never 0, which old decoders refuse in PCM samples). */
export function rgbToYuv(r: number, g: number, b: number): YuvColour {
  const luma = 0.2126 * r + 0.7152 * g + 0.0722 * b;
  return {
    y: clampByte(16 + (luma * 219) / 255, 16, 235),
    u: clampByte(128 + ((b - luma) / 1.8556) * (224 / 255), 16, 240),
    v: clampByte(128 + ((r - luma) / 1.5748) * (224 / 255), 16, 240),
  };
}

/** Converts packed RGB (3 bytes a pixel) to a padded frame; chroma is the mean of each 2×2 block. */
export function yuvFromRgb(rgb: Uint8Array, width: number, height: number): YuvFrame {
  if (width % 2 !== 0 || height % 2 !== 0) throw new RangeError(`frame sides must be even, got ${width}x${height}`);
  if (rgb.length !== width * height * 3) throw new RangeError('rgb data does not match the frame size');
  const mbWidth = Math.ceil(width / 16);
  const mbHeight = Math.ceil(height / 16);
  const frame: YuvFrame = {
    width,
    height,
    mbWidth,
    mbHeight,
    y: new Uint8Array(mbWidth * 16 * mbHeight * 16),
    u: new Uint8Array(mbWidth * 8 * mbHeight * 8),
    v: new Uint8Array(mbWidth * 8 * mbHeight * 8),
  };
  const ys = lumaStride(frame);
  const cs = chromaStride(frame);
  for (let cy = 0; cy < height / 2; cy++) {
    for (let cx = 0; cx < width / 2; cx++) {
      let r = 0;
      let g = 0;
      let b = 0;
      for (let dy = 0; dy < 2; dy++) {
        for (let dx = 0; dx < 2; dx++) {
          const px = 2 * cx + dx;
          const py = 2 * cy + dy;
          const at = (py * width + px) * 3;
          r += rgb[at];
          g += rgb[at + 1];
          b += rgb[at + 2];
          frame.y[py * ys + px] = rgbToYuv(rgb[at], rgb[at + 1], rgb[at + 2]).y;
        }
      }
      const mean = rgbToYuv(r / 4, g / 4, b / 4);
      frame.u[cy * cs + cx] = mean.u;
      frame.v[cy * cs + cx] = mean.v;
    }
  }
  padEdges(frame);
  return frame;
}

/** Repeats the last visible column and row into the macroblock padding. */
function padEdges(frame: YuvFrame): void {
  padPlane(frame.y, lumaStride(frame), frame.width, frame.height, frame.mbHeight * 16);
  padPlane(frame.u, chromaStride(frame), frame.width / 2, frame.height / 2, frame.mbHeight * 8);
  padPlane(frame.v, chromaStride(frame), frame.width / 2, frame.height / 2, frame.mbHeight * 8);
}

function padPlane(plane: Uint8Array, stride: number, width: number, height: number, paddedHeight: number): void {
  if (width < stride) {
    for (let row = 0; row < height; row++) plane.fill(plane[row * stride + width - 1], row * stride + width, (row + 1) * stride);
  }
  for (let row = height; row < paddedHeight; row++) plane.copyWithin(row * stride, (height - 1) * stride, height * stride);
}

export function copyFrame(frame: YuvFrame): YuvFrame {
  return { ...frame, y: frame.y.slice(), u: frame.u.slice(), v: frame.v.slice() };
}

/** The visible picture as packed RGB (for the thumbnail). */
export function rgbFromYuv(frame: YuvFrame): Uint8Array {
  const { width, height } = frame;
  const ys = lumaStride(frame);
  const cs = chromaStride(frame);
  const out = new Uint8Array(width * height * 3);
  for (let py = 0; py < height; py++) {
    for (let px = 0; px < width; px++) {
      const luma = ((frame.y[py * ys + px] - 16) * 255) / 219;
      const chromaAt = (py >> 1) * cs + (px >> 1);
      const cb = ((frame.u[chromaAt] - 128) * 255) / 224;
      const cr = ((frame.v[chromaAt] - 128) * 255) / 224;
      const at = (py * width + px) * 3;
      out[at] = clampByte(luma + 1.5748 * cr, 0, 255);
      out[at + 1] = clampByte(luma - 0.1873 * cb - 0.4681 * cr, 0, 255);
      out[at + 2] = clampByte(luma + 1.8556 * cb, 0, 255);
    }
  }
  return out;
}
