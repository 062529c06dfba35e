/**
 * The caller's own task by id, as a task family serves it: one of the tasks the family created.
 * Unknown ids, another key's tasks and tasks of another family all answer the family's same 404
 * (`core/own-task.ts`'s id rule), so ids reveal nothing.
 */
import { quoteValue } from '../../core/describe-value.js';
import { GatewayError } from '../../core/errors.js';
import type { AuthenticatedKey } from '../../core/key.js';
import { findOwnTask } from '../../core/own-task.js';
import type { Task } from '../../core/task.js';
import type { TaskServices } from '../../gateway/contract.js';
import type { TaskFamilyDefinition } from './task-family.js';

type FamilyLookup = Pick<TaskFamilyDefinition, 'name' | 'notFound'>;

export function findFamilyTask(tasks: Pick<TaskServices, 'get'>, key: AuthenticatedKey, id: string, family: FamilyLookup): Promise<Task> {
  return findOwnTask(id, { get: (own) => tasks.get(key, own), serves: (task) => task.surface === family.name, notFound: family.notFound });
}

/** Cancels the caller's task of the family (a finished one stays as it is) and resolves it as it now is. */
export async function cancelFamilyTask(tasks: Pick<TaskServices, 'get' | 'cancel'>, key: AuthenticatedKey, id: string, family: FamilyLookup): Promise<Task> {
  await findFamilyTask(tasks, key, id, family);
  const task = await tasks.cancel(key, id);
  if (!task) throw family.notFound(id);
  return task;
}

/** The usual 404: `no <noun> with id "…"`, code `task_not_found`. */
export function taskNotFound(noun: string): (id: string) => GatewayError {
  return (id) => new GatewayError('not_found', `no ${noun} with id ${quoteValue(id, 64)}`, { code: 'task_not_found' });
}
