/**
 * The canonical task status in imagegen1's words. Replicate says `starting` for a prediction
 * not yet running; the spec's creation answer says `pending`, so that word stands for every
 * state before the model runs.
 */
import type { TaskStatus } from '../../core/task.js';

export type Imagegen1Status = 'pending' | 'processing' | 'succeeded' | 'failed' | 'canceled';

const WORDS: Record<TaskStatus, Imagegen1Status> = {
  queued: 'pending',
  submitted: 'pending',
  running: 'processing',
  succeeded: 'succeeded',
  failed: 'failed',
  canceled: 'canceled',
};

export function imagegen1Status(status: TaskStatus): Imagegen1Status {
  return WORDS[status];
}
