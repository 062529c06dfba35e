/**
 * The caller's own task by id, the one lookup rule of every task route: an id that cannot be a
 * gateway task id (`task_…`, `video_…`, base32, digits) is not looked up at all, and a task the
 * route does not serve answers the same 404 as an unknown one, so ids reveal nothing.
 */
import type { GatewayError } from './errors.js';
import type { Task } from './task.js';

/** Gateway task ids are short letters, digits, `_` and `-`. */
export const TASK_ID = /^[A-Za-z0-9_-]{1,64}$/;

interface OwnTaskLookup {
  /** The caller's task by id (undefined for unknown ids and other keys' tasks). */
  get(id: string): Promise<Task | undefined>;
  /** Whether the route serves this task (its family, its operation). */
  serves(task: Task): boolean;
  /** The route's 404 for `id`. */
  notFound(id: string): GatewayError;
}

export async function findOwnTask(id: string, lookup: OwnTaskLookup): Promise<Task> {
  const task = TASK_ID.test(id) ? await lookup.get(id) : undefined;
  if (task === undefined || !lookup.serves(task)) throw lookup.notFound(id);
  return task;
}
