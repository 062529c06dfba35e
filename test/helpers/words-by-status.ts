/** The canonical task statuses in lifecycle order, each with the word a family shows for it. */
import type { TaskStatus } from '../../src/core/task.js';

const STATUSES: readonly TaskStatus[] = ['queued', 'submitted', 'running', 'succeeded', 'failed', 'canceled'];

/** `words`: the family's six words, space-separated, in the order queued, submitted, running, succeeded, failed, canceled. */
export function wordsByStatus(words: string): Array<[TaskStatus, string]> {
  const list = words.split(' ');
  if (list.length !== STATUSES.length) throw new Error(`expected ${STATUSES.length} words, got ${list.length}`);
  return STATUSES.map((status, index) => [status, list[index]]);
}
