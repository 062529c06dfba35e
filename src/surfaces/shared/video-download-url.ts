/**
 * Where a client downloads a video task's result: the gateway's own download route, never the
 * vendor's URL (those expire). Every video surface hands out this URL as its `video_url`.
 */
import type { Task } from '../../core/task.js';

/** `{base}/v1/videos/{id}/download`; `base` is the gateway base the client reached (no trailing slash). */
export function videoDownloadUrl(baseUrl: string, taskId: string): string {
  return `${baseUrl}/v1/videos/${encodeURIComponent(taskId)}/download`;
}

/** The download URL of a succeeded task that holds a video; null for any other task. */
export function finishedVideoUrl(task: Task, baseUrl: string): string | null {
  if (task.status !== 'succeeded') return null;
  const hasVideo = task.result?.media.some((ref) => ref.kind === 'video') ?? false;
  return hasVideo ? videoDownloadUrl(baseUrl, task.id) : null;
}

/** The video's length in whole seconds: as measured once stored, else as asked for (null: neither known). */
export function videoSeconds(task: Task): number | null {
  const measured = task.result?.media.find((ref) => ref.kind === 'video')?.seconds;
  if (measured !== undefined) return Math.round(measured);
  return task.request.seconds ?? null;
}
