/**
 * The caller's own imagegen1 task by id. Unknown ids, another key's tasks and tasks of another
 * family (an imgtask id) all answer the same 404, so ids reveal nothing.
 */
import { quoteValue } from '../../core/describe-value.js';
import { GatewayError } from '../../core/errors.js';
import type { AuthenticatedKey } from '../../core/key.js';
import { findOwnTask } from '../../core/own-task.js';
import type { Task } from '../../core/task.js';
import type { TaskServices } from '../../gateway/contract.js';

export function findImagegen1Task(tasks: TaskServices, key: AuthenticatedKey, id: string): Promise<Task> {
  return findOwnTask(id, { get: (own) => tasks.get(key, own), serves: (task) => task.surface === 'imagegen1', notFound: taskNotFound });
}

export function taskNotFound(id: string): GatewayError {
  return new GatewayError('not_found', `no imagegen1 task with id ${quoteValue(id, 64)}`, { code: 'task_not_found' });
}
