import { describe, expect, it } from 'vitest';
import { findOwnTask } from './own-task.js';
import type { Task } from './task.js';

describe('findOwnTask', () => {
  const task = { id: 'task_abc', surface: 'videogen1' } as Task;
  const looked: string[] = [];
  const get = async (id: string) => {
    looked.push(id);
    return id === task.id ? task : undefined;
  };

  it('finds a task the route serves; other tasks and unknown ids are undefined alike', async () => {
    expect(await findOwnTask(get, 'task_abc', () => true)).toBe(task);
    expect(await findOwnTask(get, 'task_abc', () => false)).toBeUndefined();
    expect(await findOwnTask(get, 'task_zzz', () => true)).toBeUndefined();
  });

  it('does not look up ids no gateway task can have', async () => {
    looked.length = 0;
    for (const id of ['', 'a'.repeat(65), 'task abc', 'task/abc', 'tâsk']) expect(await findOwnTask(get, id, () => true)).toBeUndefined();
    expect(looked).toEqual([]);
  });
});
