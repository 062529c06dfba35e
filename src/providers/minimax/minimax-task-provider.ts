/**
 * MiniMax video generation as a task provider: `POST /v1/video_generation` once at submit, then
 * `GET /v1/query/video_generation` on the engine's schedule and, once the task succeeded,
 * `GET /v1/files/retrieve` for the file's download URL (asked afresh on every poll that needs
 * it, since MiniMax's URLs expire). With a callback URL MiniMax is told to call back; that only
 * wakes the task for a poll. Channel option `callbacks: false` leaves the URL out.
 */
import { GatewayError } from '../../core/errors.js';
import type { TaskObservation, TaskOperation, TaskRequest } from '../../core/task.js';
import { submitFailure } from '../shared/uncertain-submit.js';
import type { TaskParts, TaskPollContext, TaskSubmission, TaskSubmitAttempt, TaskTarget } from '../types.js';
import { callMinimax } from './call-minimax.js';
import { minimaxDownloadUrl } from './from-minimax-file.js';
import { fromMinimaxTask, type MinimaxTaskAnswer } from './from-minimax-task.js';
import { baseRespError, type MinimaxBaseResp } from './map-minimax-error.js';
import { toMinimaxVideoRequest } from './to-minimax-video-request.js';

const TASK_ID = /^[A-Za-z0-9_-]{1,128}$/;

export function createMinimaxTaskProvider(): TaskParts {
  return {
    submit,
    poll,
  };
}

async function submit(operation: TaskOperation, request: TaskRequest, attempt: TaskSubmitAttempt): Promise<TaskSubmission> {
  if (operation !== 'video.generate') throw new GatewayError('invalid_request', `MiniMax channels do not run ${operation} tasks`);
  const { channel } = attempt;
  const callbackUrl = channel.options.callbacks === false ? undefined : attempt.callbackUrl;
  const body = toMinimaxVideoRequest(request, attempt.upstreamModel, (message) => attempt.warn?.(message), callbackUrl);
  let answer: Record<string, unknown>;
  try {
    answer = await callMinimax({ channel, method: 'POST', path: '/video_generation', body, signal: attempt.signal });
  } catch (error) {
    throw submitFailure(error, 'task');
  }
  // A base_resp error is an answer: MiniMax created nothing, so its own retryable flag stands.
  const refused = baseRespError(answer.base_resp as MinimaxBaseResp | undefined, [channel.apiKey]);
  if (refused) throw refused;
  const taskId = typeof answer.task_id === 'number' ? String(answer.task_id) : answer.task_id;
  if (typeof taskId !== 'string' || !TASK_ID.test(taskId)) {
    throw new GatewayError('upstream', 'MiniMax accepted the request without a usable task id', { retryable: false, code: 'submit_uncertain' });
  }
  return { upstreamId: taskId };
}

async function poll(target: TaskTarget, context: TaskPollContext): Promise<TaskObservation> {
  const { channel, signal } = context;
  const secrets = [channel.apiKey];
  const answer = await callMinimax({
    channel,
    method: 'GET',
    path: `/query/video_generation?task_id=${encodeURIComponent(target.upstreamId)}`,
    signal,
  });
  const { observation, fileId } = fromMinimaxTask(answer as MinimaxTaskAnswer, target.upstreamId, secrets);
  if (fileId === undefined) return observation;
  const file = await callMinimax({ channel, method: 'GET', path: `/files/retrieve?file_id=${encodeURIComponent(fileId)}`, signal });
  return { ...observation, outputs: [{ url: minimaxDownloadUrl(file, secrets), kind: 'video' }] };
}
