/**
 * The canonical task status in videogen1's words: `pending` until the model runs, then
 * `processing`, `succeeded` or `failed`. videogen1 has no word for canceled; a canceled task
 * is `failed` (its error says it was canceled).
 */
import type { TaskStatus } from '../../core/task.js';

export type Videogen1Status = 'pending' | 'processing' | 'succeeded' | 'failed';

const WORDS: Record<TaskStatus, Videogen1Status> = {
  queued: 'pending',
  submitted: 'pending',
  running: 'processing',
  succeeded: 'succeeded',
  failed: 'failed',
  canceled: 'failed',
};

export function videogen1Status(status: TaskStatus): Videogen1Status {
  return WORDS[status];
}
