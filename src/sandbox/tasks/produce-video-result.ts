/**
 * A sandbox `video.generate`: a real H.264 MP4 of the asked length, aspect ratio and
 * resolution, and a PNG thumbnail of its first frame. The background is the seeded pattern (or
 * the client's first-frame image, cropped to fit) with the simulated label; the animation is
 * drawn and encoded in a worker thread. Pictures are decoded in an image decode slot; the
 * encode waits for one of the encoder's own slots instead.
 */
import type { ImageInput } from '../../core/image.js';
import type { TaskRequest } from '../../core/task.js';
import { withDecodeSlot } from '../../media/image-decoding.js';
import { loadSharp } from '../../media/load-sharp.js';
import { invalidRequest } from '../../core/errors.js';
import type { TaskSubmitAttempt } from '../../providers/types.js';
import { decodeRaster, labelRaster } from '../images/raster.js';
import { patternSvg } from '../images/pattern-svg.js';
import type { SandboxMediaLimits } from '../sandbox-media-limits.js';
import { simulatedLabelSvg } from '../images/simulated-label.js';
import { chooseVideoShape } from '../video/choose-video-shape.js';
import { encodeVideoOffThread } from '../video/encode-video-off-thread.js';
import type { ProducedTask } from './produce-task-result.js';
import { imageDigest, seedText, taskSeed } from './task-seeds.js';

/** The image the video starts from: the first one given as a first frame (or with no role). */
function firstFrame(request: TaskRequest, warn?: (message: string) => void): ImageInput | undefined {
  const images = request.images ?? [];
  const roles = request.imageRoles ?? [];
  const at = images.findIndex((_, i) => (roles[i] ?? 'first_frame') === 'first_frame');
  if (images.length > (at >= 0 ? 1 : 0)) warn?.('images: the sandbox starts its video from a first frame and ignores last frames and reference images');
  return at >= 0 ? images[at] : undefined;
}

async function background(request: TaskRequest, width: number, height: number, seed: number, warn?: (message: string) => void): Promise<Buffer> {
  const image = firstFrame(request, warn);
  if (image) {
    const rgba = (await labelRaster(await decodeRaster(image, { width, height }, 'images', 'cover'))).data;
    const rgb = Buffer.alloc(width * height * 3);
    // Plain indexing: a `copy` call per pixel held the event loop for ~200 ms on a 720p frame.
    for (let i = 0, j = 0; i < rgb.length; i += 3, j += 4) {
      rgb[i] = rgba[j];
      rgb[i + 1] = rgba[j + 1];
      rgb[i + 2] = rgba[j + 2];
    }
    return rgb;
  }
  const sharp = await loadSharp();
  return sharp(patternSvg({ width, height }, seed))
    .composite([{ input: simulatedLabelSvg(width, height) }])
    .removeAlpha()
    .raw()
    .toBuffer();
}

export async function produceVideoResult(request: TaskRequest, attempt: TaskSubmitAttempt, limits: SandboxMediaLimits): Promise<ProducedTask> {
  const shape = chooseVideoShape(request, limits);
  const { width, height, fps, frames, seconds } = shape;
  const warn = attempt.warn?.bind(attempt);
  const seed = taskSeed(request.seed, ['video', request.model, request.prompt ?? '', width, height, frames, (request.images ?? []).map(imageDigest)]);
  const rgb = await withDecodeSlot(() => background(request, width, height, seed, warn), attempt.signal);
  const encoded = await encodeVideoOffThread({ rgb, width, height, fps, frames, seed }, attempt.signal);
  if (encoded.mp4.length > limits.maxVideoBytes) {
    throw invalidRequest(
      `the sandbox's video would be ${encoded.mp4.length} bytes, more than its limit of ${limits.maxVideoBytes} (sandbox.maxVideoBytes): ask for fewer seconds or a lower resolution`,
      'seconds',
    );
  }
  const sharp = await loadSharp();
  const thumbnail = await withDecodeSlot(
    () =>
      sharp(encoded.thumbnailRgb, { raw: { width, height, channels: 3 } })
        .png()
        .toBuffer(),
    attempt.signal,
  );
  return {
    files: [
      { data: encoded.mp4, mime: 'video/mp4', kind: 'video', width, height, seconds },
      { data: thumbnail, mime: 'image/png', kind: 'image', width, height },
    ],
    seed: seedText(seed),
    grid: false,
  };
}
