/**
 * The canonical task status in videogen3's words, Luma's generation states: `queued` until the
 * model runs, `dreaming` while it does, then `completed` or `failed`. A canceled task is
 * `failed` (its `failure_reason` says it was canceled).
 */
import type { TaskStatus } from '../../core/task.js';

export type Videogen3State = 'queued' | 'dreaming' | 'completed' | 'failed';

const WORDS: Record<TaskStatus, Videogen3State> = {
  queued: 'queued',
  submitted: 'queued',
  running: 'dreaming',
  succeeded: 'completed',
  failed: 'failed',
  canceled: 'failed',
};

export function videogen3State(status: TaskStatus): Videogen3State {
  return WORDS[status];
}
