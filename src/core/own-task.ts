/**
 * The caller's own task by id, the one lookup rule of every task route: an id that cannot be a
 * gateway task id (`task_…`, `video_…`, base32, digits) is not looked up at all, and a task the
 * route does not serve is treated as unknown, so ids reveal nothing.
 */
import type { Task } from './task.js';

/** Gateway task ids are short letters, digits, `_` and `-`. */
export const TASK_ID = /^[A-Za-z0-9_-]{1,64}$/;

/** `get`: the caller's task by id (undefined for unknown ids and other keys' tasks). */
export async function findOwnTask(get: (id: string) => Promise<Task | undefined>, id: string, serves: (task: Task) => boolean): Promise<Task | undefined> {
  const task = TASK_ID.test(id) ? await get(id) : undefined;
  return task !== undefined && serves(task) ? task : undefined;
}
