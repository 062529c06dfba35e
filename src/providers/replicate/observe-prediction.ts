/**
 * A Replicate prediction as the task engine sees it: every prediction status mapped to a
 * canonical one, the output URLs of a succeeded prediction, the failure of a failed one, and
 * the progress a model's progress bar shows in its logs.
 */
import type { TaskObservation, TaskOutput } from '../../core/task.js';
import { predictionError } from './map-replicate-error.js';
import { seedFromLogs } from './replicate-output.js';

interface ObservedPrediction {
  status: string;
  output?: unknown;
  error?: unknown;
  logs?: unknown;
}

/** Every status Replicate documents; `aborted` ends a prediction that never started (e.g. its deadline passed). */
const STATUS: Record<string, TaskObservation['status']> = {
  starting: 'submitted',
  processing: 'running',
  succeeded: 'succeeded',
  failed: 'failed',
  canceled: 'canceled',
  aborted: 'canceled',
};

const MAX_OUTPUTS = 16;
const MAX_URL_CHARS = 2_048;
const MAX_VENDOR_STATUS_CHARS = 64;
const MAX_FAILURE_CHARS = 500;
/** Progress bars print many lines; the last one is near the end. */
const LOG_TAIL_CHARS = 4_096;

export function observePrediction(prediction: ObservedPrediction, secrets: string[] = []): TaskObservation {
  const vendorStatus = prediction.status.slice(0, MAX_VENDOR_STATUS_CHARS);
  const status = Object.hasOwn(STATUS, prediction.status) ? STATUS[prediction.status] : 'unknown';
  switch (status) {
    case 'succeeded': {
      const outputs = outputUrls(prediction.output);
      if (outputs.length === 0) {
        return { status: 'failed', vendorStatus, error: { code: 'upstream_failed', message: 'the Replicate prediction succeeded without an image URL' } };
      }
      const seed = seedFromLogs(prediction.logs);
      return { status, vendorStatus, progress: 1, outputs, ...(seed !== undefined ? { seed: String(seed) } : {}) };
    }
    case 'failed':
      return { status, vendorStatus, error: failure(prediction.error, secrets) };
    case 'canceled':
      return {
        status,
        vendorStatus,
        error: { code: 'upstream_canceled', message: `the Replicate prediction was ${prediction.status === 'aborted' ? 'aborted' : 'canceled'} upstream` },
      };
    case 'running': {
      const progress = progressFromLogs(prediction.logs);
      return progress === undefined ? { status, vendorStatus } : { status, vendorStatus, progress };
    }
    default:
      return { status, vendorStatus };
  }
}

/** `output` is one URI or a list (of URIs, or of anything a model returns): the http(s) URLs, at most 16. */
export function outputUrls(output: unknown): TaskOutput[] {
  const items = Array.isArray(output) ? output.slice(0, MAX_OUTPUTS * 4) : [output];
  const outputs: TaskOutput[] = [];
  for (const item of items) {
    if (outputs.length >= MAX_OUTPUTS) break;
    if (typeof item === 'string' && item.length <= MAX_URL_CHARS && isHttpUrl(item)) outputs.push({ url: item, kind: 'image' });
  }
  return outputs;
}

/** A model's tqdm bar (` 45%|████▌     | 9/20 [00:02<00:02, 4.1it/s]`): its last percentage, 0–1. */
export function progressFromLogs(logs: unknown): number | undefined {
  if (typeof logs !== 'string') return undefined;
  const matches = [...logs.slice(-LOG_TAIL_CHARS).matchAll(/(?:^|\s)(\d{1,3})%\|/gm)];
  const last = matches.at(-1);
  if (!last) return undefined;
  const percent = Number(last[1]);
  return percent <= 100 ? percent / 100 : undefined;
}

/** A failed prediction's error, classified as the synchronous provider does, its text bounded and cleaned. */
function failure(errorText: unknown, secrets: string[]): { code: string; message: string } {
  const text = sanitize(typeof errorText === 'string' ? errorText : errorText ? JSON.stringify(errorText).slice(0, 4 * MAX_FAILURE_CHARS) : '', secrets);
  const code = predictionError('failed', text).code === 'content_policy_violation' ? 'content_policy' : 'upstream_failed';
  return { code, message: text || 'the Replicate prediction failed without a reason' };
}

/**
 * Model errors are free text: control characters go, URLs (which may name hosts) and anything
 * shaped like a Replicate token or the channel's own credential are masked, the rest is cut.
 */
export function sanitize(text: string, secrets: string[] = []): string {
  let clean = text.slice(0, 4 * MAX_FAILURE_CHARS);
  for (const secret of secrets) if (secret.length >= 8) clean = clean.split(secret).join('[redacted]');
  clean = clean
    .replace(/\bhttps?:\/\/\S+/gi, '[url]')
    .replace(/\br8_[A-Za-z0-9]{8,}/g, '[redacted]')
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is removed
    .replace(/[\u0000-\u001f\u007f]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return clean.length <= MAX_FAILURE_CHARS ? clean : `${clean.slice(0, MAX_FAILURE_CHARS)}…`;
}

function isHttpUrl(value: string): boolean {
  try {
    const { protocol } = new URL(value);
    return protocol === 'https:' || protocol === 'http:';
  } catch {
    return false;
  }
}
