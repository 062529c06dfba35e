/**
 * Why a video task's file cannot be served: not finished yet (409 `video_not_ready`), finished
 * without a video (409 `video_failed`, with the task's reason), or kept past the retention
 * (410 `video_expired`), each an error of the caller's request.
 */
import { quoteValue } from '../../core/describe-value.js';
import { GatewayError } from '../../core/errors.js';
import type { Task } from '../../core/task.js';

/** Throws unless the task succeeded; `statusWord` is the status as the route's clients name it. */
export function requireSucceeded(task: Task, statusWord: string): void {
  if (task.status === 'succeeded') return;
  const id = quoteValue(task.id, 64);
  if (task.status === 'failed' || task.status === 'canceled') {
    const verb = task.status === 'canceled' ? 'was canceled' : 'failed';
    const reason = task.error?.message ? `: ${task.error.message}` : '';
    throw new GatewayError('invalid_request', `video ${id} ${verb}${reason}`, { status: 409, code: 'video_failed' });
  }
  throw new GatewayError('invalid_request', `video ${id} is not ready (status ${statusWord}); try again once it has completed`, {
    status: 409,
    code: 'video_not_ready',
  });
}

export function videoExpired(task: Task): GatewayError {
  return new GatewayError('not_found', `video ${quoteValue(task.id, 64)} has expired: its files are kept for a limited time after it finished`, {
    status: 410,
    code: 'video_expired',
  });
}
