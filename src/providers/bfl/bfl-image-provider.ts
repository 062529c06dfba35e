/** Image generation through BFL: one task per image, submitted concurrently and polled to completion. */
import type { ImageGenerateRequest, ImageResult } from '../../core/image.js';
import type { Attempt, ImageProvider } from '../types.js';
import { AttemptDeadline } from '../shared/attempt-deadline.js';
import { bflOutputFormat, toBflBody } from './bfl-request.js';
import { runAllOrAbort } from '../shared/run-all-or-abort.js';
import { runBflTask } from './run-bfl-task.js';

export function createBflImageProvider(): ImageProvider {
  return {
    async generate(request: ImageGenerateRequest, attempt: Attempt): Promise<ImageResult> {
      const deadline = new AttemptDeadline(attempt.channel.timeoutMs);
      const mediaType = bflOutputFormat(request) === 'jpeg' ? 'image/jpeg' : 'image/png';
      const samples = await runAllOrAbort(Math.max(1, request.n), attempt.signal, (index, signal) =>
        runBflTask(toBflBody(request, attempt.upstreamModel, attempt.channel, index), attempt, signal, deadline),
      );
      return {
        created: Math.floor(Date.now() / 1000),
        images: samples.map((sample) => ({ url: sample.url, seed: sample.seed, mediaType })),
      };
    },
  };
}
