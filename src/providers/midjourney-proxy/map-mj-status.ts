/** The proxy's task statuses → canonical observation statuses, every value listed. */
import type { TaskObservation } from '../../core/task.js';

const STATUS: Record<string, TaskObservation['status']> = {
  NOT_START: 'submitted',
  SUBMITTED: 'submitted',
  IN_PROGRESS: 'running',
  SUCCESS: 'succeeded',
  FAILURE: 'failed',
  CANCEL: 'canceled',
  // Waiting for the modal's input (some proxies): not finished, and it may still go on.
  MODAL: 'running',
};

export function mapMjStatus(status: unknown): TaskObservation['status'] {
  return typeof status === 'string' && Object.hasOwn(STATUS, status) ? STATUS[status] : 'unknown';
}
