/**
 * A task as `/v1/video/generations` shows it, in the shape of an Ark content generation task:
 * `{id, model, status, content: {video_url}, usage, error, created_at, updated_at}` with Unix
 * seconds, plus what was asked (`duration`, and `ratio`, `resolution`, `seed` when given).
 * `content` and `usage` appear once succeeded, as with Ark. The gateway keeps no token count on
 * the task, so `usage` reports zero tokens. The lookup needs no request object, so the engine's
 * webhook dispatcher renders it too.
 */
import type { Task } from '../../core/task.js';
import { finishedVideoUrl, videoSeconds } from '../shared/video-download-url.js';
import { type VideoGenerationsStatus, videoGenerationsStatus } from './video-generations-status.js';

interface VideoGenerationsAccepted {
  id: string;
  status: 'submitted';
}

interface VideoGenerationsTask {
  id: string;
  model: string;
  status: VideoGenerationsStatus;
  /** The gateway's download URL, once succeeded. */
  content?: { video_url: string };
  usage?: { completion_tokens: number; total_tokens: number };
  error: { code: string; message: string } | null;
  duration: number | null;
  ratio?: string;
  resolution?: string;
  seed?: number;
  /** Unix seconds. */
  created_at: number;
  updated_at: number;
}

export function renderVideoGenerationsAccepted(task: Task): VideoGenerationsAccepted {
  return { id: task.id, status: 'submitted' };
}

/** `baseUrl`: the gateway base links start with (by default the one the task was created through). */
export function renderVideoGenerationsTask(task: Task, baseUrl = task.request.publicBaseUrl ?? ''): VideoGenerationsTask {
  const status = videoGenerationsStatus(task.status);
  const record: VideoGenerationsTask = {
    id: task.id,
    model: task.model,
    status,
    error: null,
    duration: videoSeconds(task),
    created_at: unixSeconds(task.createdAt),
    updated_at: unixSeconds(task.updatedAt),
  };
  const videoUrl = finishedVideoUrl(task, baseUrl);
  if (videoUrl !== null) {
    record.content = { video_url: videoUrl };
    record.usage = { completion_tokens: 0, total_tokens: 0 };
  }
  if (status === 'failed') record.error = { code: task.error?.code ?? 'failed', message: task.error?.message || 'the video generation failed' };
  const { aspectRatio, resolution, seed } = task.request;
  if (aspectRatio !== undefined) record.ratio = aspectRatio;
  if (resolution !== undefined) record.resolution = resolution;
  if (seed !== undefined) record.seed = seed;
  return record;
}

function unixSeconds(ms: number): number {
  return Math.floor(ms / 1000);
}
