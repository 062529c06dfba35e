/**
 * The canonical task status in videogen2's words: `submitted` until the model runs, then
 * `processing`, `succeeded` or `failed`. A canceled task is `failed` (its error says why).
 */
import type { TaskStatus } from '../../core/task.js';

export type Videogen2Status = 'submitted' | 'processing' | 'succeeded' | 'failed';

const WORDS: Record<TaskStatus, Videogen2Status> = {
  queued: 'submitted',
  submitted: 'submitted',
  running: 'processing',
  succeeded: 'succeeded',
  failed: 'failed',
  canceled: 'failed',
};

export function videogen2Status(status: TaskStatus): Videogen2Status {
  return WORDS[status];
}
