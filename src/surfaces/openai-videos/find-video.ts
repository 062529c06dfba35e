/**
 * The caller's own video task by id, whichever video surface created it (the download route and
 * the OpenAI videos surface serve them all). Unknown ids, another key's tasks and tasks that are
 * not videos all answer the same 404, so ids reveal nothing.
 */
import { quoteValue } from '../../core/describe-value.js';
import { GatewayError } from '../../core/errors.js';
import type { AuthenticatedKey } from '../../core/key.js';
import type { Task } from '../../core/task.js';
import type { TaskServices } from '../../gateway/contract.js';

/** Gateway task ids are short (`video_…`, `task_…`); anything else is not looked up at all. */
export const VIDEO_ID = /^[A-Za-z0-9_-]{1,64}$/;

export async function findVideo(tasks: TaskServices, key: AuthenticatedKey, id: string): Promise<Task> {
  const task = VIDEO_ID.test(id) ? await tasks.get(key, id) : undefined;
  if (task?.operation !== 'video.generate') throw videoNotFound(id);
  return task;
}

export function videoNotFound(id: string): GatewayError {
  return new GatewayError('not_found', `no video with id ${quoteValue(id, 64)}`, { code: 'video_not_found' });
}
