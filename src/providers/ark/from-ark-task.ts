/**
 * An Ark task record (`GET …/tasks/{id}` or an item of the task list) → TaskObservation.
 * States: queued → submitted, running → running, succeeded → the video URL to copy with the
 * vendor's usage (seconds of video, tokens), failed → failed with Ark's reason (content checks
 * as `content_policy`), cancelled → canceled, expired (Ark gave up before running it) → failed
 * as a timeout; anything else → unknown.
 */
import type { TaskError, TaskObservation } from '../../core/task.js';
import { cleanArkText } from './clean-ark-text.js';
import { isArkContentPolicyCode } from './map-ark-error.js';

export interface ArkTask {
  id?: unknown;
  model?: unknown;
  status?: unknown;
  content?: { video_url?: unknown; last_frame_url?: unknown } | null;
  usage?: { completion_tokens?: unknown; total_tokens?: unknown } | null;
  seed?: unknown;
  resolution?: unknown;
  ratio?: unknown;
  duration?: unknown;
  frames?: unknown;
  framespersecond?: unknown;
  created_at?: unknown;
  updated_at?: unknown;
  error?: { code?: unknown; message?: unknown } | null;
}

const MAX_URL_CHARS = 8_192;

export function fromArkTask(task: ArkTask, secrets: readonly string[] = []): TaskObservation {
  const vendorStatus = typeof task.status === 'string' ? task.status.slice(0, 40) : 'missing';
  switch (task.status) {
    case 'queued':
      return { status: 'submitted', vendorStatus };
    case 'running':
      return { status: 'running', vendorStatus };
    case 'succeeded':
      return succeeded(task, vendorStatus);
    case 'failed':
      return { status: 'failed', vendorStatus, error: failure(task, secrets) };
    case 'cancelled':
      return { status: 'canceled', vendorStatus, error: { code: 'canceled_upstream', message: 'The task was cancelled upstream.' } };
    case 'expired':
      return { status: 'failed', vendorStatus, error: { code: 'timeout', message: 'The upstream gave up on the task before it finished.' } };
    default:
      return { status: 'unknown', vendorStatus };
  }
}

function succeeded(task: ArkTask, vendorStatus: string): TaskObservation {
  const url = task.content?.video_url;
  if (typeof url !== 'string' || !/^https?:\/\//i.test(url) || url.length > MAX_URL_CHARS) {
    return { status: 'failed', vendorStatus, error: { code: 'upstream_failed', message: 'The upstream reported success without a video.' } };
  }
  const observation: TaskObservation = { status: 'succeeded', vendorStatus, progress: 1, outputs: [{ url, kind: 'video' }] };
  const usage: NonNullable<TaskObservation['usage']> = {};
  const seconds = videoSeconds(task);
  if (seconds !== undefined) usage.seconds = seconds;
  const tokens = task.usage?.total_tokens;
  if (typeof tokens === 'number' && Number.isSafeInteger(tokens) && tokens >= 0) usage.totalTokens = tokens;
  if (Object.keys(usage).length > 0) observation.usage = usage;
  if (typeof task.seed === 'number' && Number.isSafeInteger(task.seed)) observation.seed = String(task.seed);
  return observation;
}

/** `duration` in seconds, or `frames` / `framespersecond` when the task was asked in frames. */
function videoSeconds(task: ArkTask): number | undefined {
  const positive = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value) && value > 0 && value <= 3_600;
  if (positive(task.duration)) return task.duration;
  if (typeof task.frames === 'number' && task.frames > 0 && positive(task.framespersecond)) {
    const seconds = Math.round((task.frames / task.framespersecond) * 100) / 100;
    return positive(seconds) ? seconds : undefined;
  }
  return undefined;
}

function failure(task: ArkTask, secrets: readonly string[]): TaskError {
  const code = cleanArkText(task.error?.code, secrets, 100);
  const message = cleanArkText(task.error?.message, secrets) || (code ? `The upstream failed the task (${code}).` : 'The upstream failed the task.');
  return { code: code && isArkContentPolicyCode(code) ? 'content_policy' : 'upstream_failed', message };
}
