/**
 * Runs the video encode in a worker thread, so the event loop keeps serving while it works
 * (seconds for a long 1080p clip). At most two encodes run at once; the rest wait their turn.
 * Each encode gets a fresh worker with a memory cap and a time limit, and is stopped at once
 * when the attempt aborts.
 */
import { Worker } from 'node:worker_threads';
import { GatewayError } from '../../../core/errors.js';
import { DecodeSlots } from '../../../media/decode-slots.js';
import { abortedError } from '../shared/sleep.js';
import type { EncodedVideo, VideoEncodeInput } from './encode-video.js';

export const CONCURRENT_VIDEO_ENCODES = 2;
export const VIDEO_ENCODE_TIMEOUT_MS = 120_000;
const WORKER_HEAP_MB = 512;

const slots = new DecodeSlots(CONCURRENT_VIDEO_ENCODES);

/** The built worker (`.js` next to this module), or, when running from sources, the `.ts` one loaded through tsx. */
function startWorker(input: VideoEncodeInput): Worker {
  const options = { workerData: input, resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB } };
  if (!import.meta.url.endsWith('.ts')) return new Worker(new URL('./encode-video-worker.js', import.meta.url), options);
  const tsx = import.meta.resolve('tsx/esm/api');
  const entry = new URL('./encode-video-worker.ts', import.meta.url).href;
  const bootstrap = `import(${JSON.stringify(tsx)}).then((api) => { api.register(); return import(${JSON.stringify(entry)}); });`;
  return new Worker(bootstrap, { ...options, eval: true });
}

function runWorker(input: VideoEncodeInput, signal: AbortSignal, timeoutMs: number): Promise<EncodedVideo> {
  return new Promise<EncodedVideo>((resolve, reject) => {
    if (signal.aborted) {
      reject(abortedError(signal));
      return;
    }
    const worker = startWorker(input);
    let settled = false;
    const finish = (outcome: () => void): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      void worker.terminate();
      outcome();
    };
    const onAbort = (): void => finish(() => reject(abortedError(signal)));
    const timer = setTimeout(
      () => finish(() => reject(new GatewayError('timeout', `sandbox: the video encode took longer than ${timeoutMs / 1000} s`, { retryable: false }))),
      timeoutMs,
    );
    signal.addEventListener('abort', onAbort, { once: true });
    worker.once('message', (result: EncodedVideo) => finish(() => resolve(result)));
    worker.once('error', (error) => finish(() => reject(new GatewayError('internal', `sandbox: the video encode failed: ${error.message}`, { cause: error }))));
    worker.once('exit', (code) => finish(() => reject(new GatewayError('internal', `sandbox: the video encoder stopped (exit code ${code})`))));
  });
}

export function encodeVideoOffThread(input: VideoEncodeInput, signal: AbortSignal, timeoutMs = VIDEO_ENCODE_TIMEOUT_MS): Promise<EncodedVideo> {
  return slots
    .run(() => runWorker(input, signal, timeoutMs), signal)
    .catch((error: unknown) => {
      throw signal.aborted ? abortedError(signal) : error;
    });
}
