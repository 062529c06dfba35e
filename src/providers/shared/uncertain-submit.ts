/**
 * A create that failed without an answer may still have created the job upstream (the request
 * went out, then the connection dropped or no answer came in time). Trying another channel
 * then could run and bill the job twice, so only failures that certainly happened before the
 * request reached the upstream stay retryable. Shared by the task providers' submits.
 */
import { GatewayError, isGatewayError } from '../../core/errors.js';

/** Connection failures: nothing was sent. */
const NOT_SENT = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'UND_ERR_CONNECT_TIMEOUT']);

/** `what` names the upstream's job in the message (`prediction`, `task`). */
export function submitFailure(error: unknown, what = 'task'): unknown {
  if (!isGatewayError(error) || !error.retryable || error.upstreamStatus !== undefined) return error;
  const cause = (error.cause as { code?: unknown } | undefined)?.code;
  if (typeof cause === 'string' && NOT_SENT.has(cause)) return error;
  return new GatewayError(error.kind, `${error.message} (the ${what} may have been created upstream)`, {
    code: 'submit_uncertain',
    retryable: false,
    cause: error,
  });
}
