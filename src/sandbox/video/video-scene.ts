/**
 * What the sandbox's video shows over its seeded picture: a progress bar filling up, the
 * SIMULATED label, a frame counter, and a block bouncing left to right and back once over the
 * clip. Everything that moves is flat-coloured, so from one frame to the next only the
 * macroblocks along its edges change (that keeps the P frames small).
 */
import { GLYPH_HEIGHT, textDots } from './block-font.js';
import { drawText, fillRect, type Rect } from './draw-yuv.js';
import { rgbToYuv, type YuvColour, type YuvFrame } from './yuv-frame.js';

const SIMULATED_WORD = 'SIMULATED';

const WHITE = rgbToYuv(255, 255, 255);
const PANEL = rgbToYuv(16, 16, 16);
const TRACK = rgbToYuv(70, 70, 70);

interface SceneLayout {
  margin: number;
  /** Pixels per font dot. */
  scale: number;
  bar: Rect;
  labelPanel: Rect;
  counterPanel: Rect;
  block: { size: number; y: number; minX: number; maxX: number; colour: YuvColour; border: number };
}

function even(value: number): number {
  return 2 * Math.max(1, Math.round(value / 2));
}

/** The widest counter text a clip of `frames` frames shows. */
function widestCounter(frames: number): string {
  return `${frames}/${frames}`;
}

function hueColour(seed: number): YuvColour {
  // A saturated colour from the seed's hue (HSV with full saturation and value).
  const hue = (seed % 360) / 60;
  const x = Math.round(255 * (1 - Math.abs((hue % 2) - 1)));
  const rgb = [
    [255, x, 0],
    [x, 255, 0],
    [0, 255, x],
    [0, x, 255],
    [x, 0, 255],
    [255, 0, x],
  ][Math.floor(hue) % 6];
  return rgbToYuv(rgb[0], rgb[1], rgb[2]);
}

export function planScene(width: number, height: number, frames: number, seed: number): SceneLayout {
  const short = Math.min(width, height);
  const margin = even(short / 40);
  const labelDots = Math.max(textDots(SIMULATED_WORD), textDots(widestCounter(frames)));
  const scale = Math.max(1, Math.min(Math.floor(short / 110), Math.floor((width - 4 * margin) / labelDots)));
  const bar: Rect = { x: margin, y: margin, width: width - 2 * margin, height: even(Math.max(2, scale * 2)) };
  const pad = Math.max(1, Math.ceil(scale / 2));
  const textHeight = GLYPH_HEIGHT * scale + 2 * pad;
  const labelPanel: Rect = { x: margin, y: bar.y + bar.height + margin, width: textDots(SIMULATED_WORD) * scale + 2 * pad, height: textHeight };
  const counterPanel: Rect = {
    x: margin,
    y: labelPanel.y + labelPanel.height + Math.ceil(margin / 2),
    width: textDots(widestCounter(frames)) * scale + 2 * pad,
    height: textHeight,
  };
  const size = even(short / 6);
  const top = counterPanel.y + counterPanel.height + margin;
  // Above the picture's bottom label band (about an eighth of the height).
  const bottom = Math.max(top, Math.floor(height * 0.86) - size);
  return {
    margin,
    scale,
    bar,
    labelPanel,
    counterPanel,
    block: {
      size,
      y: Math.round((top + bottom) / 2),
      minX: margin,
      maxX: Math.max(margin, width - margin - size),
      colour: hueColour(seed),
      border: even(size / 16),
    },
  };
}

/** What stays the same in every frame: the bar's track and the panels with the label. */
export function drawStaticScene(frame: YuvFrame, layout: SceneLayout): void {
  fillRect(frame, layout.bar, TRACK);
  fillRect(frame, layout.labelPanel, PANEL);
  fillRect(frame, layout.counterPanel, PANEL);
  const pad = Math.max(1, Math.ceil(layout.scale / 2));
  drawText(frame, SIMULATED_WORD, layout.labelPanel.x + pad, layout.labelPanel.y + pad, layout.scale, WHITE);
}

/** Where the block's left edge is at frame `index` of `frames`: there and back once. */
function blockX(layout: SceneLayout, index: number, frames: number): number {
  const { minX, maxX } = layout.block;
  const t = frames <= 1 ? 0 : index / (frames - 1);
  const along = t <= 0.5 ? t * 2 : (1 - t) * 2;
  return Math.round(minX + (maxX - minX) * along);
}

/** The parts that change: the bar's fill, the counter and the block. */
export function drawMovingScene(frame: YuvFrame, layout: SceneLayout, index: number, frames: number): void {
  const { bar, counterPanel, block, scale } = layout;
  fillRect(frame, { ...bar, width: Math.round((bar.width * (index + 1)) / frames) }, WHITE);
  const pad = Math.max(1, Math.ceil(scale / 2));
  drawText(frame, `${index + 1}/${frames}`, counterPanel.x + pad, counterPanel.y + pad, scale, WHITE);
  const x = blockX(layout, index, frames);
  fillRect(frame, { x, y: block.y, width: block.size, height: block.size }, WHITE);
  const inner = block.size - 2 * block.border;
  fillRect(frame, { x: x + block.border, y: block.y + block.border, width: inner, height: inner }, block.colour);
}
