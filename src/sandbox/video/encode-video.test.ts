import { beforeAll, describe, expect, it } from 'vitest';
import { decodeRawFrames, probeVideo, requireFfmpeg, SKIP_FFMPEG_TESTS } from '../../../test/helpers/ffmpeg.js';
import { encodeVideo, renderFrames, type VideoEncodeInput } from './encode-video.js';
import { chromaStride, lumaStride, type YuvFrame } from './yuv-frame.js';

/** A background with detail everywhere, so a wrong copy or a misplaced macroblock shows. */
function background(width: number, height: number): Uint8Array {
  const rgb = new Uint8Array(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const at = (y * width + x) * 3;
      rgb[at] = (x * 7 + y) & 0xff;
      rgb[at + 1] = (y * 5) & 0xff;
      rgb[at + 2] = (x ^ y) & 0xff;
    }
  }
  return rgb;
}

function input(width: number, height: number, frames: number): VideoEncodeInput {
  return { rgb: background(width, height), width, height, fps: 8, frames, seed: 99 };
}

/** The visible part of a frame in ffmpeg's raw yuv420p layout. */
function visibleYuv(frame: YuvFrame): Buffer {
  const { width, height } = frame;
  const out = Buffer.alloc((width * height * 3) / 2);
  let at = 0;
  for (let row = 0; row < height; row++, at += width) out.set(frame.y.subarray(row * lumaStride(frame), row * lumaStride(frame) + width), at);
  for (const plane of [frame.u, frame.v]) {
    for (let row = 0; row < height / 2; row++, at += width / 2) out.set(plane.subarray(row * chromaStride(frame), row * chromaStride(frame) + width / 2), at);
  }
  return out;
}

describe.skipIf(SKIP_FFMPEG_TESTS)('encodeVideo, read back by ffmpeg', () => {
  beforeAll(() => requireFfmpeg());

  it('makes an H.264 MP4 of the asked size, length and frame count', async () => {
    const { mp4 } = encodeVideo(input(320, 180, 24));
    const probed = await probeVideo(mp4);
    expect(probed).toMatchObject({ codec: 'h264', profile: 'Constrained Baseline', width: 320, height: 180, frames: 24, pixelFormat: 'yuv420p' });
    expect(Math.abs(probed.duration - 3)).toBeLessThan(0.5);
  });

  it('decodes to exactly the frames drawn, cropping sizes that are not whole macroblocks', async () => {
    for (const [width, height] of [
      [200, 150],
      [144, 256],
    ]) {
      const clip = input(width, height, 12);
      const decoded = await decodeRawFrames(encodeVideo(clip).mp4);
      const frameBytes = (width * height * 3) / 2;
      expect(decoded.length).toBe(frameBytes * 12);
      let index = 0;
      for (const frame of renderFrames(clip)) {
        const expected = visibleYuv(frame);
        expect(decoded.subarray(index * frameBytes, (index + 1) * frameBytes).equals(expected), `frame ${index} of ${width}x${height}`).toBe(true);
        index++;
      }
    }
  });

  it('animates: the first, middle and last frames differ, and repeated frames cost little', async () => {
    const clip = input(256, 144, 16);
    const { mp4 } = encodeVideo(clip);
    const decoded = await decodeRawFrames(mp4);
    const frameBytes = (256 * 144 * 3) / 2;
    const frame = (i: number) => decoded.subarray(i * frameBytes, (i + 1) * frameBytes);
    expect(frame(0).equals(frame(8))).toBe(false);
    expect(frame(8).equals(frame(15))).toBe(false);
    // The IDR alone holds every macroblock as PCM (384 bytes each); the 15 P frames add far less than 15 more.
    const macroblocks = 16 * 9;
    expect(mp4.length).toBeLessThan(macroblocks * 384 * 6);
  });

  it('is deterministic for the same input', () => {
    const clip = input(160, 96, 8);
    expect(Buffer.from(encodeVideo(clip).mp4).equals(Buffer.from(encodeVideo(clip).mp4))).toBe(true);
  });
});
