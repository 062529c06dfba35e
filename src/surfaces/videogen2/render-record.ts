/**
 * A task as videogen2 shows it: the creation answer `{id, status: "submitted", created_at}` and
 * the lookup `{id, model, status, video_url, duration, resolution, error, created_at,
 * updated_at}` (ISO 8601 times, as the creation answer's). The lookup needs no request object,
 * so the engine's webhook dispatcher renders it too.
 */
import type { Task } from '../../core/task.js';
import { finishedVideoUrl, videoSeconds } from '../shared/video-download-url.js';
import { type Videogen2Status, videogen2Status } from './videogen2-status.js';

interface Videogen2Accepted {
  id: string;
  status: 'submitted';
  created_at: string;
}

interface Videogen2Task {
  id: string;
  model: string;
  status: Videogen2Status;
  /** The gateway's download URL once succeeded; null before and otherwise. */
  video_url: string | null;
  duration: number | null;
  resolution: string | null;
  /** Why the task failed (or that it was canceled); null otherwise. */
  error: string | null;
  created_at: string;
  updated_at: string;
}

export function renderVideogen2Accepted(task: Task): Videogen2Accepted {
  return { id: task.id, status: 'submitted', created_at: new Date(task.createdAt).toISOString() };
}

/** `baseUrl`: the gateway base links start with (by default the one the task was created through). */
export function renderVideogen2Task(task: Task, baseUrl = task.request.publicBaseUrl ?? ''): Videogen2Task {
  const status = videogen2Status(task.status);
  return {
    id: task.id,
    model: task.model,
    status,
    video_url: finishedVideoUrl(task, baseUrl),
    duration: videoSeconds(task),
    resolution: task.request.resolution ?? null,
    error: status === 'failed' ? task.error?.message || 'the video generation failed' : null,
    created_at: new Date(task.createdAt).toISOString(),
    updated_at: new Date(task.updatedAt).toISOString(),
  };
}
