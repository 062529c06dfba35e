/**
 * The caller's own imagegen1 task by id. Unknown ids, another key's tasks and tasks of another
 * family (an imgtask id) all answer the same 404, so ids reveal nothing.
 */
import { quoteValue } from '../../core/describe-value.js';
import { GatewayError } from '../../core/errors.js';
import type { AuthenticatedKey } from '../../core/key.js';
import type { Task } from '../../core/task.js';
import type { TaskServices } from '../../gateway/contract.js';

/** Task ids are short lowercase base32; anything else is not looked up at all. */
const TASK_ID = /^[a-z0-9]{1,64}$/;

export async function findImagegen1Task(tasks: TaskServices, key: AuthenticatedKey, id: string): Promise<Task> {
  const task = TASK_ID.test(id) ? await tasks.get(key, id) : undefined;
  if (task?.surface !== 'imagegen1') throw taskNotFound(id);
  return task;
}

export function taskNotFound(id: string): GatewayError {
  return new GatewayError('not_found', `no imagegen1 task with id ${quoteValue(id, 64)}`, { code: 'task_not_found' });
}
