/**
 * Runs the video encode in a worker thread, so the event loop keeps serving while it works
 * (seconds for a long 1080p clip). At most two encodes run at once; the rest wait their turn.
 * Workers (memory-capped) are kept between encodes — starting one costs the event loop tens of
 * milliseconds — and one is stopped at once, and replaced later, when its encode is aborted or
 * runs out of time.
 */
import { Worker } from 'node:worker_threads';
import { GatewayError } from '../../core/errors.js';
import { DecodeSlots } from '../../media/decode-slots.js';
import { abortedError } from '../shared/sleep.js';
import type { EncodedVideo, VideoEncodeInput } from './encode-video.js';

const CONCURRENT_VIDEO_ENCODES = 2;
const VIDEO_ENCODE_TIMEOUT_MS = 120_000;
const WORKER_HEAP_MB = 512;

const slots = new DecodeSlots(CONCURRENT_VIDEO_ENCODES);

/** The built worker (`.js` next to this module), or, when running from sources, the `.ts` one loaded through tsx. */
function startWorker(): Worker {
  const options = { resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB } };
  if (!import.meta.url.endsWith('.ts')) return new Worker(new URL('./encode-video-worker.js', import.meta.url), options);
  const tsx = import.meta.resolve('tsx/esm/api');
  const entry = new URL('./encode-video-worker.ts', import.meta.url).href;
  const bootstrap = `import(${JSON.stringify(tsx)}).then((api) => { api.register(); return import(${JSON.stringify(entry)}); });`;
  return new Worker(bootstrap, { ...options, eval: true });
}

/** Idle workers, at most one per encode slot; they never keep the process alive. */
const idle: Worker[] = [];

function takeWorker(): Worker {
  const worker = idle.pop() ?? startWorker();
  worker.ref();
  return worker;
}

function returnWorker(worker: Worker): void {
  worker.removeAllListeners('message').removeAllListeners('error').removeAllListeners('exit');
  worker.unref();
  if (idle.length < CONCURRENT_VIDEO_ENCODES) idle.push(worker);
  else void worker.terminate();
}

function runWorker(input: VideoEncodeInput, signal: AbortSignal, timeoutMs: number): Promise<EncodedVideo> {
  return new Promise<EncodedVideo>((resolve, reject) => {
    if (signal.aborted) {
      reject(abortedError(signal));
      return;
    }
    const worker = takeWorker();
    let settled = false;
    const finish = (reusable: boolean, outcome: () => void): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      if (reusable) returnWorker(worker);
      else void worker.terminate();
      outcome();
    };
    const onAbort = (): void => finish(false, () => reject(abortedError(signal)));
    const timer = setTimeout(
      () => finish(false, () => reject(new GatewayError('timeout', `sandbox: the video encode took longer than ${timeoutMs / 1000} s`, { retryable: false }))),
      timeoutMs,
    );
    signal.addEventListener('abort', onAbort, { once: true });
    worker.once('message', (result: EncodedVideo) => finish(true, () => resolve(result)));
    worker.once('error', (error) =>
      finish(false, () => reject(new GatewayError('internal', `sandbox: the video encode failed: ${error.message}`, { cause: error }))),
    );
    worker.once('exit', (code) => finish(false, () => reject(new GatewayError('internal', `sandbox: the video encoder stopped (exit code ${code})`))));
    worker.postMessage(input);
  });
}

export function encodeVideoOffThread(input: VideoEncodeInput, signal: AbortSignal, timeoutMs = VIDEO_ENCODE_TIMEOUT_MS): Promise<EncodedVideo> {
  return slots
    .run(() => runWorker(input, signal, timeoutMs), signal)
    .catch((error: unknown) => {
      throw signal.aborted ? abortedError(signal) : error;
    });
}
