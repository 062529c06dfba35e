/**
 * Image generation through Replicate predictions. The n images are spread over predictions
 * of at most 4 (1 for models that make one image each), run concurrently.
 */
import type { ImageGenerateRequest, ImageResult, ProducedImage } from '../../core/image.js';
import type { Attempt, ImageProvider } from '../types.js';
import { AttemptDeadline } from '../shared/attempt-deadline.js';
import { makesOneImage, MAX_OUTPUTS_PER_PREDICTION, replicateOutputFormat, toReplicateInput } from './replicate-request.js';
import { toProducedImages } from './replicate-output.js';
import { runAllOrAbort } from '../shared/run-all-or-abort.js';
import { runPrediction } from './run-prediction.js';

export function createReplicateImageProvider(): ImageProvider {
  return {
    async generate(request: ImageGenerateRequest, attempt: Attempt): Promise<ImageResult> {
      const deadline = new AttemptDeadline(attempt.channel.timeoutMs);
      const n = Math.max(1, request.n);
      const perPrediction = makesOneImage(attempt.upstreamModel) ? 1 : MAX_OUTPUTS_PER_PREDICTION;
      const images = await produce(request, attempt, deadline, split(n, perPrediction), 0);
      if (images.length < n) {
        // The model ignored `num_outputs`: one more prediction per missing image.
        images.push(...(await produce(request, attempt, deadline, split(n - images.length, 1), images.length)));
      }
      return { created: Math.floor(Date.now() / 1000), images: images.slice(0, n) };
    },
  };
}

/** Runs one prediction per entry of `counts` (images asked of it); the images in order. */
async function produce(
  request: ImageGenerateRequest,
  attempt: Attempt,
  deadline: AttemptDeadline,
  counts: number[],
  firstIndex: number,
): Promise<ProducedImage[]> {
  const format = replicateOutputFormat(request);
  const offsets = counts.map((_, i) => firstIndex + counts.slice(0, i).reduce((sum, count) => sum + count, 0));
  const batches = await runAllOrAbort(counts.length, attempt.signal, async (i, signal) => {
    // Each prediction starts at the next seed, so seeded requests stay reproducible yet differ.
    const seed = request.seed === undefined ? undefined : request.seed + offsets[i];
    const prediction = await runPrediction(toReplicateInput(request, attempt.upstreamModel, counts[i], seed), attempt, signal, deadline);
    return toProducedImages(prediction.output, prediction.logs, format, seed);
  });
  return batches.flat();
}

/** `total` split into parts of at most `size`: split(6, 4) → [4, 2]. */
function split(total: number, size: number): number[] {
  const parts: number[] = [];
  for (let left = total; left > 0; left -= size) parts.push(Math.min(size, left));
  return parts;
}
