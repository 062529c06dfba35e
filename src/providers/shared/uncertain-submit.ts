/**
 * A task create that failed without an answer may still have created the task upstream (the
 * request went out, then the connection dropped or no answer came in time). Trying another
 * channel then could run and bill the job twice, so only failures that certainly happened
 * before the request reached the upstream stay retryable. Shared by every task provider.
 */
import { GatewayError, isGatewayError } from '../../core/errors.js';

/** Connection failures: nothing was sent. */
const NOT_SENT = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'UND_ERR_CONNECT_TIMEOUT']);

export function submitFailure(error: unknown): unknown {
  if (!isGatewayError(error) || !error.retryable || error.upstreamStatus !== undefined) return error;
  const cause = (error.cause as { code?: unknown } | undefined)?.code;
  if (typeof cause === 'string' && NOT_SENT.has(cause)) return error;
  return new GatewayError(error.kind, `${error.message} (the task may have been created upstream)`, {
    code: 'submit_uncertain',
    retryable: false,
    cause: error,
  });
}
