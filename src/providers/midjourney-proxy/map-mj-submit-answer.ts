/**
 * A submit answer `{code, description, result, properties}` → the upstream task id, or the
 * GatewayError its code stands for. Codes: 1 success, 21 already exists (the existing task's
 * id), 22 queued — all three accepted; 3 the task acted on is unknown, 4 validation error,
 * 9 failure, 23 queue full (retryable elsewhere: nothing was accepted), 24 banned prompt.
 */
import { GatewayError } from '../../core/errors.js';
import { isEmptyOrDotSegment } from '../shared/path-segment.js';
import { cleanMjText } from './clean-mj-text.js';

const ACCEPTED = new Set([1, 21, 22]);
const MAX_TASK_ID_CHARS = 128;

interface MjSubmitAnswer {
  code?: unknown;
  description?: unknown;
  result?: unknown;
  properties?: unknown;
}

/** The upstream id of the accepted task; throws the mapped error otherwise. */
export function acceptedUpstreamId(answer: unknown): string {
  if (answer === null || typeof answer !== 'object' || Array.isArray(answer)) {
    throw new GatewayError('upstream', 'the MJ proxy answered the submit without a result object', { retryable: false });
  }
  const { code, description, result, properties } = answer as MjSubmitAnswer;
  if (typeof code !== 'number' || !ACCEPTED.has(code)) throw mjSubmitCodeError(code, description, properties);
  const id = typeof result === 'number' ? String(result) : result;
  if (typeof id !== 'string' || isEmptyOrDotSegment(id) || id.length > MAX_TASK_ID_CHARS || !/^[\w.:-]+$/.test(id)) {
    // Not retryable: the proxy may have accepted the task, another channel would run it twice.
    throw new GatewayError('upstream', `the MJ proxy accepted the task (code ${code}) without a usable task id`, { retryable: false });
  }
  return id;
}

/** The error a refused submit stands for. */
export function mjSubmitCodeError(code: unknown, description: unknown, properties?: unknown): GatewayError {
  const said = cleanMjText(description);
  const because = said ? `: ${said}` : '';
  switch (code) {
    case 3:
      return new GatewayError('invalid_request', `the task to act on was not found upstream${because}`, {
        code: 'task_not_found',
        errorType: 'upstream.refused',
      });
    case 4:
      return new GatewayError('invalid_request', `the MJ proxy refused the request${because}`, { code: 'validation_error', errorType: 'upstream.refused' });
    case 9:
      return new GatewayError('upstream', `the MJ proxy failed to submit the task${because}`, { retryable: false, code: 'upstream_failed' });
    case 23:
      return new GatewayError('overloaded', `the MJ proxy's queue is full${because}`, { retryable: true, code: 'queue_full' });
    case 24: {
      const word = cleanMjText((properties as { bannedWord?: unknown } | undefined)?.bannedWord, 100);
      return new GatewayError(
        'invalid_request',
        `the prompt was refused by the image provider's content rules${word ? ` (banned word "${word}")` : ''}${because}`,
        { code: 'content_policy', errorType: 'upstream.refused' },
      );
    }
    default: {
      const shown = typeof code === 'number' || typeof code === 'string' ? String(code).slice(0, 20) : 'none';
      return new GatewayError('upstream', `the MJ proxy answered the submit with code ${shown}${because}`, { retryable: false });
    }
  }
}
