/**
 * The caller's own video task by id, created through one surface. Unknown ids, another key's
 * tasks and tasks of another family all answer the same 404, so ids reveal nothing.
 */
import { quoteValue } from '../../core/describe-value.js';
import { GatewayError } from '../../core/errors.js';
import type { AuthenticatedKey } from '../../core/key.js';
import { findOwnTask } from '../../core/own-task.js';
import type { Task, TaskSurface } from '../../core/task.js';
import type { TaskServices } from '../../gateway/contract.js';

export function findVideoTask(tasks: TaskServices, key: AuthenticatedKey, id: string, surface: TaskSurface): Promise<Task> {
  const serves = (task: Task) => task.surface === surface && task.operation === 'video.generate';
  return findOwnTask(id, { get: (own) => tasks.get(key, own), serves, notFound: videoTaskNotFound });
}

/** Cancels the caller's task of `surface` (a finished one stays as it is) and resolves it as it now is. */
export async function cancelVideoTask(tasks: TaskServices, key: AuthenticatedKey, id: string, surface: TaskSurface): Promise<Task> {
  await findVideoTask(tasks, key, id, surface);
  const task = await tasks.cancel(key, id);
  if (!task) throw videoTaskNotFound(id);
  return task;
}

function videoTaskNotFound(id: string): GatewayError {
  return new GatewayError('not_found', `no video task with id ${quoteValue(id, 64)}`, { code: 'task_not_found' });
}
