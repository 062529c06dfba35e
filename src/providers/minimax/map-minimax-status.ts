/** MiniMax's task statuses → canonical observation statuses, every value listed. */
import type { TaskObservation } from '../../core/task.js';

const STATUS: Readonly<Record<string, TaskObservation['status']>> = {
  Preparing: 'submitted',
  Queueing: 'submitted',
  Processing: 'running',
  Success: 'succeeded',
  Fail: 'failed',
};

export function mapMinimaxStatus(status: unknown): TaskObservation['status'] {
  return typeof status === 'string' && Object.hasOwn(STATUS, status) ? STATUS[status] : 'unknown';
}
