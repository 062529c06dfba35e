/**
 * videogen1 answers in an envelope `{code, message, data}` (code 0 on success). The lookup's
 * `data` is the task in videogen1's words; it needs no request object, so the engine's webhook
 * dispatcher renders it too.
 */
import type { Task } from '../../core/task.js';
import { finishedVideoUrl, videoSeconds } from '../shared/video-download-url.js';
import { type Videogen1Status, videogen1Status } from './videogen1-status.js';

interface Videogen1Envelope<T> {
  code: 0;
  message: 'success';
  data: T;
}

interface Videogen1Accepted {
  task_id: string;
  status: 'pending';
  created_at: string;
}

interface Videogen1Task {
  task_id: string;
  model: string;
  status: Videogen1Status;
  /** The gateway's download URL once succeeded; null before and otherwise. */
  video_url: string | null;
  duration: number | null;
  /** Why the task failed (or that it was canceled); null otherwise. */
  error: string | null;
  created_at: string;
  updated_at: string;
}

function success<T>(data: T): Videogen1Envelope<T> {
  return { code: 0, message: 'success', data };
}

/** The creation answer: the task as accepted, `pending` whatever the upstream has done since. */
export function renderVideogen1Accepted(task: Task): Videogen1Envelope<Videogen1Accepted> {
  return success({ task_id: task.id, status: 'pending', created_at: new Date(task.createdAt).toISOString() });
}

/** `baseUrl`: the gateway base links start with (by default the one the task was created through). */
export function renderVideogen1Task(task: Task, baseUrl = task.request.publicBaseUrl ?? ''): Videogen1Envelope<Videogen1Task> {
  const status = videogen1Status(task.status);
  return success({
    task_id: task.id,
    model: task.model,
    status,
    video_url: finishedVideoUrl(task, baseUrl),
    duration: videoSeconds(task),
    error: status === 'failed' ? task.error?.message || 'the video generation failed' : null,
    created_at: new Date(task.createdAt).toISOString(),
    updated_at: new Date(task.updatedAt).toISOString(),
  });
}
