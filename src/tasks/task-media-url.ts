import type { Task } from '../core/task.js';

/** A result file's gateway link: under the configured public URL, else under the host the task was submitted through. */
export function taskMediaUrl(publicBaseUrl: string | undefined, task: Task, mediaId: string): string {
  return `${publicBaseUrl ?? task.request.publicBaseUrl ?? ''}/media/${mediaId}`;
}
