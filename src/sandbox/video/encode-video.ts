/**
 * The sandbox's whole video encode, synchronous and pure (it runs in a worker thread): the
 * seeded picture becomes the background, the scene is drawn over it frame by frame, and the
 * frames become an H.264 stream in an MP4. Also returns the first frame as RGB for the thumbnail.
 */
import { changedMacroblocks } from './changed-macroblocks.js';
import { writePps, writeSps } from './h264-parameter-sets.js';
import { writeIdrSlice, writePSlice } from './h264-slices.js';
import { lengthPrefixed, muxMp4 } from './mux-mp4.js';
import { NAL_PPS, NAL_SPS, nalUnit } from './nal-unit.js';
import { drawMovingScene, drawStaticScene, planScene } from './video-scene.js';
import { copyFrame, rgbFromYuv, type YuvFrame, yuvFromRgb } from './yuv-frame.js';

export interface VideoEncodeInput {
  /** The background, packed RGB of `width` × `height` (both even). */
  rgb: Uint8Array;
  width: number;
  height: number;
  fps: number;
  frames: number;
  seed: number;
}

export interface EncodedVideo {
  mp4: Uint8Array;
  /** The first frame, packed RGB. */
  thumbnailRgb: Uint8Array;
}

/**
 * The clip's frames in order. Two buffers take turns, so a yielded frame stays as it is until
 * the frame after the next one is drawn (the encoder compares each frame with the one before).
 */
export function* renderFrames(input: VideoEncodeInput): Generator<YuvFrame> {
  const { width, height, frames, seed } = input;
  if (!Number.isInteger(frames) || frames < 1) throw new RangeError(`a video needs at least one frame, got ${frames}`);
  const background = yuvFromRgb(input.rgb, width, height);
  const layout = planScene(width, height, frames, seed);
  drawStaticScene(background, layout);
  const buffers = [copyFrame(background), copyFrame(background)];
  for (let index = 0; index < frames; index++) {
    const frame = buffers[index % 2];
    frame.y.set(background.y);
    frame.u.set(background.u);
    frame.v.set(background.v);
    drawMovingScene(frame, layout, index, frames);
    yield frame;
  }
}

export function encodeVideo(input: VideoEncodeInput): EncodedVideo {
  const samples: Uint8Array[] = [];
  let previous: YuvFrame | undefined;
  let thumbnailRgb: Uint8Array = new Uint8Array(0);
  let parameterSets: { sps: Uint8Array; pps: Uint8Array } | undefined;
  for (const frame of renderFrames(input)) {
    if (!previous) {
      parameterSets = { sps: nalUnit(NAL_SPS, 3, writeSps(frame)), pps: nalUnit(NAL_PPS, 3, writePps()) };
      samples.push(lengthPrefixed([writeIdrSlice(frame)]));
      thumbnailRgb = rgbFromYuv(frame);
    } else {
      const flags = changedMacroblocks(previous, frame);
      samples.push(lengthPrefixed([writePSlice(frame, samples.length, (mbX, mbY) => flags[mbY * frame.mbWidth + mbX] === 1)]));
    }
    previous = frame;
  }
  if (!parameterSets) throw new RangeError('a video needs at least one frame');
  const mp4 = muxMp4({ width: input.width, height: input.height, fps: input.fps, ...parameterSets, samples, syncSamples: [1] });
  return { mp4, thumbnailRgb };
}
