/**
 * A video task as OpenAI's Video object: `{id, object: "video", model, status, progress (whole
 * percent), created_at, completed_at, expires_at (Unix seconds), prompt, size, seconds, error,
 * remixed_from_video_id}`. `size` and `seconds` are what the stored video measured, else what
 * was asked, else null (the model's own default, not known before it ran).
 */
import { isTerminalTaskStatus, type Task } from '../../core/task.js';
import { type OpenAIVideoStatus, openaiVideoStatus } from './openai-video-status.js';

export interface OpenAIVideo {
  id: string;
  object: 'video';
  model: string;
  status: OpenAIVideoStatus;
  progress: number;
  created_at: number;
  completed_at: number | null;
  expires_at: number | null;
  prompt: string | null;
  size: string | null;
  seconds: string | null;
  error: { code: string; message: string } | null;
  remixed_from_video_id: null;
}

/** `expiresAt`: when the stored video goes (Unix ms), when the caller knows it. */
export function renderOpenAIVideo(task: Task, expiresAt?: number): OpenAIVideo {
  const status = openaiVideoStatus(task.status);
  return {
    id: task.id,
    object: 'video',
    model: task.model,
    status,
    progress: status === 'completed' ? 100 : Math.max(0, Math.min(100, Math.round(task.progress * 100))),
    created_at: unixSeconds(task.createdAt),
    completed_at: isTerminalTaskStatus(task.status) && task.finishedAt !== undefined ? unixSeconds(task.finishedAt) : null,
    expires_at: expiresAt !== undefined && status === 'completed' ? unixSeconds(expiresAt) : null,
    prompt: task.request.prompt ?? null,
    size: videoSize(task),
    seconds: videoLength(task),
    error: status === 'failed' ? videoError(task) : null,
    remixed_from_video_id: null,
  };
}

function unixSeconds(ms: number): number {
  return Math.floor(ms / 1000);
}

function storedVideo(task: Task) {
  return task.status === 'succeeded' ? task.result?.media.find((ref) => ref.kind === 'video') : undefined;
}

function videoSize(task: Task): string | null {
  const stored = storedVideo(task);
  if (stored?.width !== undefined && stored.height !== undefined) return `${stored.width}x${stored.height}`;
  const { width, height } = task.request;
  return width !== undefined && height !== undefined ? `${width}x${height}` : null;
}

function videoLength(task: Task): string | null {
  const measured = storedVideo(task)?.seconds;
  if (measured !== undefined) return String(Math.round(measured));
  return task.request.seconds === undefined ? null : String(task.request.seconds);
}

function videoError(task: Task): { code: string; message: string } {
  if (task.error) return { code: task.error.code, message: task.error.message || 'the video generation failed' };
  return task.status === 'canceled'
    ? { code: 'canceled', message: 'the video generation was canceled' }
    : { code: 'failed', message: 'the video generation failed' };
}
