/**
 * The sandbox's image operations: real PNGs made with sharp, deterministic for the same
 * request, each picture labelled as simulated. `n` pictures use `n` different seeds; each is
 * drawn in one of the gateway's few decode slots, so that `n` × many requests queue instead
 * of decoding all at once.
 */
import type { ImageResult, ProducedImage } from '../../core/image.js';
import { invalidRequest } from '../../core/errors.js';
import { nowSeconds } from '../../core/ids.js';
import { withDecodeSlot } from '../../media/image-decoding.js';
import type { Attempt, ImageProvider } from '../../providers/types.js';
import type { SandboxRuntimeSettings } from '../sandbox-settings.js';
import { throwIfInjectedFailure } from '../shared/injected-failure.js';
import { abortedError, sleep } from '../shared/sleep.js';
import { blendPicture, editPicture, generatePicture, remixPicture, type Picture } from './sandbox-picture-ops.js';
import { MAX_SIDE } from './choose-output-size.js';
import { seedForIndex, seedImageRequest } from './seed-image-request.js';

interface SandboxImageRequest {
  model: string;
  n: number;
  prompt?: string;
  seed?: number;
  responseFormat?: unknown;
}

type Draw<R> = (request: R, seed: number, maxSide: number) => Promise<Picture>;

/** Pictures drawn for one request at most. */
const MAX_SANDBOX_IMAGES = 10;

/** `maxImageSide`: the longest side drawn (`sandbox.maxImageSide`). */
export function createSandboxImages(settingsFor: (attempt: Attempt) => SandboxRuntimeSettings, maxImageSide = MAX_SIDE): ImageProvider {
  function run<R extends SandboxImageRequest>(draw: Draw<R>, promptUsed: (request: R) => string): (request: R, attempt: Attempt) => Promise<ImageResult> {
    return async (request, attempt) => {
      if (request.n > MAX_SANDBOX_IMAGES) throw invalidRequest(`n: the sandbox draws at most ${MAX_SANDBOX_IMAGES} images per request, got ${request.n}`, 'n');
      const settings = settingsFor(attempt);
      const requestSeed = seedImageRequest(request);
      throwIfInjectedFailure(settings, requestSeed.seed, attempt.channel.name, [request.model, attempt.upstreamModel]);
      await sleep(settings.firstTokenDelayMs, attempt.signal);
      const count = Math.max(1, request.n);
      const images = await Promise.all(
        Array.from({ length: count }, async (_, index): Promise<ProducedImage> => {
          // The client's seed is part of the request hash; the one reported back is the client's, counted up per picture.
          const drawSeed = seedForIndex(requestSeed, index);
          const seed = request.seed !== undefined ? request.seed + index : drawSeed & 0x7fffffff;
          const picture = await withDecodeSlot(() => draw(request, drawSeed, maxImageSide), attempt.signal);
          return {
            data: picture.png,
            mediaType: 'image/png',
            revisedPrompt: promptUsed(request),
            seed,
            resolution: `${picture.size.width}x${picture.size.height}`,
            isImageSafe: true,
            styleType: 'GENERAL',
          };
        }),
      );
      if (attempt.signal.aborted) throw abortedError(attempt.signal);
      return { created: nowSeconds(), images };
    };
  }

  const prompt = (request: { prompt?: string }) => request.prompt ?? '';
  return {
    generate: run(generatePicture, prompt),
    edit: run(editPicture, prompt),
    remix: run(remixPicture, prompt),
    blend: run(blendPicture, (request) => request.prompt ?? `a blend of ${request.images.length} images`),
  };
}
