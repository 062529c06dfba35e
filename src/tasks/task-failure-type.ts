/**
 * Whose fault a task's failure was, when the upstream reported it (a poll's `failed` or
 * `canceled`): a refusal under its content policy, or a cancel the client did not ask for, is the
 * upstream refusing; giving up on the task is its timeout; anything else (a failure without a
 * reason, a task it lost, success without a result) is the upstream's own failure.
 */
import type { ErrorType } from '../core/error-type.js';
import type { TaskError } from '../core/task.js';

export function upstreamTaskErrorType(status: 'failed' | 'canceled', error: TaskError | undefined): ErrorType {
  const code = error?.code ?? '';
  if (/content_policy|moderat|safety/.test(code)) return 'upstream.refused';
  if (code === 'timeout') return 'upstream.timeout';
  if (status === 'canceled') return 'upstream.refused';
  return 'upstream.server_error';
}
