import { describe, expect, it } from 'vitest';
import { GatewayError } from './errors.js';
import { findOwnTask } from './own-task.js';
import type { Task } from './task.js';

describe('findOwnTask', () => {
  const task = { id: 'task_abc', surface: 'videogen1' } as Task;
  const looked: string[] = [];
  const lookup = (serves: boolean) => ({
    get: async (id: string) => {
      looked.push(id);
      return id === task.id ? task : undefined;
    },
    serves: () => serves,
    notFound: (id: string) => new GatewayError('not_found', `no task ${id}`),
  });
  const missing = (promise: Promise<Task>) =>
    promise.then(
      () => 'found',
      (error: GatewayError) => error.message,
    );

  it('finds a task the route serves; other tasks and unknown ids get the route’s 404 alike', async () => {
    expect(await findOwnTask('task_abc', lookup(true))).toBe(task);
    expect(await missing(findOwnTask('task_abc', lookup(false)))).toBe('no task task_abc');
    expect(await missing(findOwnTask('task_zzz', lookup(true)))).toBe('no task task_zzz');
  });

  it('does not look up ids no gateway task can have', async () => {
    looked.length = 0;
    for (const id of ['', 'a'.repeat(65), 'task abc', 'task/abc', 'tâsk']) expect(await missing(findOwnTask(id, lookup(true)))).toBe(`no task ${id}`);
    expect(looked).toEqual([]);
  });
});
