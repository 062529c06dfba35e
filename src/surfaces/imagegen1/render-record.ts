/**
 * A task as imagegen1 shows it, in the shape of a Replicate prediction: the lookup and cancel
 * answers, the creation answer (as accepted) and the webhook body. It needs no request
 * object, so the engine's webhook dispatcher can render it too.
 */
import type { Task } from '../../core/task.js';
import { type Imagegen1Status, imagegen1Status } from './imagegen1-status.js';

interface Imagegen1Record {
  id: string;
  model: string;
  status: Imagegen1Status;
  input: Record<string, unknown>;
  /** Gateway URLs of the images once succeeded; null before and otherwise. */
  output: string[] | null;
  error: string | null;
  /** Replicate carries the model's log here; the gateway has none to show. */
  logs: string;
  created_at: string;
  started_at: string | null;
  completed_at: string | null;
  /** `predict_time` in seconds, once finished. */
  metrics: { predict_time?: number };
  urls: { get: string; cancel: string };
}

/** `baseUrl`: the gateway's base the links start with (by default the one the task was created through). */
export function renderImagegen1Record(task: Task, mediaUrl: (mediaId: string) => string, baseUrl = task.request.publicBaseUrl ?? ''): Imagegen1Record {
  const status = imagegen1Status(task.status);
  const self = `${baseUrl}/imagegen1/task/${encodeURIComponent(task.id)}`;
  return {
    id: task.id,
    model: task.model,
    status,
    input: inputOf(task),
    output: status === 'succeeded' ? (task.result?.media ?? []).map((ref) => mediaUrl(ref.mediaId)) : null,
    error: errorOf(task),
    logs: '',
    created_at: isoTime(task.createdAt) as string,
    started_at: isoTime(task.startedAt),
    completed_at: isoTime(task.finishedAt),
    metrics: metricsOf(task),
    urls: { get: self, cancel: `${self}/cancel` },
  };
}

/** The creation answer: the task as accepted, `pending` whatever the upstream has done since. */
export function renderAcceptedRecord(task: Task, mediaUrl: (mediaId: string) => string, baseUrl?: string): Imagegen1Record {
  const accepted: Task = { ...task, status: 'submitted', result: undefined, error: undefined, startedAt: undefined, finishedAt: undefined };
  return renderImagegen1Record(accepted, mediaUrl, baseUrl);
}

/** The inputs as the client gave them (extras under their own names). */
function inputOf(task: Task): Record<string, unknown> {
  const { prompt, width, height, count, seed, options } = task.request;
  const input: Record<string, unknown> = { ...options, prompt: prompt ?? '' };
  if (width !== undefined) input.width = width;
  if (height !== undefined) input.height = height;
  input.num_outputs = count ?? 1;
  if (seed !== undefined) input.seed = seed;
  return input;
}

/** Only a failed task shows an error, as with Replicate (a canceled prediction's error is null). */
function errorOf(task: Task): string | null {
  if (task.status !== 'failed') return null;
  return task.error?.message || 'the prediction failed';
}

function metricsOf(task: Task): Imagegen1Record['metrics'] {
  if (task.finishedAt === undefined) return {};
  const from = task.startedAt ?? task.submittedAt ?? task.createdAt;
  return { predict_time: Math.max(0, task.finishedAt - from) / 1000 };
}

function isoTime(ms: number | undefined): string | null {
  return ms === undefined ? null : new Date(ms).toISOString();
}
