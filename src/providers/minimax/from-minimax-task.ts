/**
 * A `GET /v1/query/video_generation` answer → what the task is doing. A finished task names a
 * `file_id`: the provider then asks `files/retrieve` for its download URL. A failed one keeps
 * MiniMax's reason (its `base_resp.status_msg`, or the task's own error text).
 */
import { GatewayError } from '../../core/errors.js';
import type { TaskObservation } from '../../core/task.js';
import { baseRespError, type MinimaxBaseResp, minimaxMessage } from './map-minimax-error.js';
import { mapMinimaxStatus } from './map-minimax-status.js';

export interface MinimaxTaskAnswer {
  task_id?: unknown;
  status?: unknown;
  file_id?: unknown;
  video_width?: unknown;
  video_height?: unknown;
  error_message?: unknown;
  error?: unknown;
  base_resp?: MinimaxBaseResp;
}

interface MinimaxTaskState {
  observation: TaskObservation;
  /** Set when the task succeeded: the file to retrieve. */
  fileId?: string;
}

const CONTENT_POLICY_CODES = new Set([1026, 1027]);
const MAX_VENDOR_STATUS_CHARS = 64;

export function fromMinimaxTask(answer: MinimaxTaskAnswer, upstreamId: string, secrets: readonly string[]): MinimaxTaskState {
  const code = answer.base_resp?.status_code;
  const vendorStatus = typeof answer.status === 'string' ? answer.status.slice(0, MAX_VENDOR_STATUS_CHARS) : '';
  const status = mapMinimaxStatus(answer.status);
  if (status === 'failed' || CONTENT_POLICY_CODES.has(code as number)) {
    return { observation: { status: 'failed', vendorStatus: vendorStatus || 'Fail', error: failure(answer, secrets) } };
  }
  // A query MiniMax itself refused (rate limit, credentials, an unknown task id): nothing was learnt.
  const refused = baseRespError(answer.base_resp, secrets);
  if (refused) throw refused;
  if (answer.task_id !== undefined && String(answer.task_id) !== upstreamId) {
    throw new GatewayError('upstream', 'MiniMax answered about another task than the one asked for', { retryable: true });
  }
  if (status !== 'succeeded') return { observation: { status, vendorStatus: vendorStatus || '(none)' } };
  const fileId = typeof answer.file_id === 'number' || typeof answer.file_id === 'string' ? String(answer.file_id) : '';
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(fileId)) {
    throw new GatewayError('upstream', 'MiniMax reports the task succeeded but names no result file', { retryable: true });
  }
  return { observation: { status: 'succeeded', vendorStatus }, fileId };
}

function failure(answer: MinimaxTaskAnswer, secrets: readonly string[]): { code: string; message: string } {
  const code = answer.base_resp?.status_code;
  const statusMessage = minimaxMessage(answer.base_resp?.status_msg, secrets);
  const ownError = minimaxMessage(
    answer.error_message ?? (typeof answer.error === 'object' && answer.error !== null ? (answer.error as { message?: unknown }).message : answer.error),
    secrets,
  );
  const said = [statusMessage.toLowerCase() === 'success' ? '' : statusMessage, ownError].find((text) => text !== '');
  return {
    code: CONTENT_POLICY_CODES.has(code as number) ? 'content_policy' : 'upstream_failed',
    message: said ? `MiniMax: ${said}` : 'MiniMax reports the task failed without giving a reason.',
  };
}
