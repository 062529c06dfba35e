/**
 * Runway as a task provider (video): the task is created at submit (`image_to_video` or
 * `text_to_video`), read with `GET /v1/tasks/{id}` on the engine's schedule, and cancelled with
 * `DELETE /v1/tasks/{id}`. Runway has no callbacks: polls are the only way a result comes in.
 */
import { GatewayError } from '../../core/errors.js';
import type { TaskObservation, TaskOperation, TaskRequest } from '../../core/task.js';
import { submitFailure } from '../shared/uncertain-submit.js';
import { callJsonUpstream, type JsonCall } from '../shared/call-json-upstream.js';
import type { ChannelConfig, TaskParts, TaskPollContext, TaskSubmission, TaskSubmitAttempt, TaskTarget } from '../types.js';
import { mapRunwayError } from './map-runway-error.js';
import { observeRunwayTask, type RunwayTask } from './observe-runway-task.js';
import { runwayHeaders, runwayTaskUrl, runwayUrl } from './runway-request.js';
import { toRunwayTask } from './to-runway-task.js';

const MAX_TASK_BYTES = 256 * 1024;
/** Runway's ids are UUIDs; anything else is not trusted into a URL path. */
const TASK_ID = /^[A-Za-z0-9_-]{1,128}$/;

/** What a read says of a task Runway no longer has (deleted, or expired). */
const LOST: TaskObservation = {
  status: 'failed',
  vendorStatus: 'NOT_FOUND',
  error: { code: 'upstream_lost', message: 'Runway no longer knows the task.' },
};

export function createRunwayTaskProvider(): TaskParts {
  return {
    async submit(operation: TaskOperation, request: TaskRequest, attempt: TaskSubmitAttempt): Promise<TaskSubmission> {
      if (operation !== 'video.generate') throw new GatewayError('invalid_request', `Runway channels do not run ${operation} tasks`);
      const { channel } = attempt;
      const { path, body } = toRunwayTask(request, attempt.upstreamModel);
      try {
        const answer = await callRunway(channel, attempt.signal, { method: 'POST', url: runwayUrl(channel, path), body });
        const id = (answer.json as { id?: unknown } | undefined)?.id;
        if (typeof id !== 'string' || !TASK_ID.test(id)) throw new GatewayError('upstream', 'Runway answered without a valid task id', { retryable: true });
        return { upstreamId: id, observation: { status: 'submitted', vendorStatus: 'PENDING' } };
      } catch (error) {
        throw submitFailure(error);
      }
    },

    async poll(target: TaskTarget, context: TaskPollContext): Promise<TaskObservation> {
      const { channel } = context;
      const answer = await callRunway(channel, context.signal, { method: 'GET', url: runwayTaskUrl(channel, target.upstreamId), readStatuses: [404] });
      if (answer.status === 404) return { ...LOST, error: { ...LOST.error! } };
      const task = (answer.json ?? {}) as RunwayTask;
      if (typeof answer.json !== 'object' || Array.isArray(answer.json) || typeof task.status !== 'string') {
        throw new GatewayError('upstream', 'Runway answered a task read without a status', { retryable: true });
      }
      if (task.id !== target.upstreamId) throw new GatewayError('upstream', 'Runway answered another task than the one asked for', { retryable: true });
      return observeRunwayTask(task, [channel.apiKey]);
    },

    async cancel(target: TaskTarget, context: TaskPollContext): Promise<void> {
      const { channel } = context;
      await callRunway(channel, context.signal, { method: 'DELETE', url: runwayTaskUrl(channel, target.upstreamId), readStatuses: [404] });
    },
  };
}

function callRunway(channel: ChannelConfig, signal: AbortSignal, call: Pick<JsonCall, 'method' | 'url' | 'body' | 'readStatuses'>) {
  return callJsonUpstream({
    ...call,
    vendor: 'Runway',
    headers: runwayHeaders(channel, call.body !== undefined),
    signal,
    timeoutMs: channel.timeoutMs,
    maxBytes: MAX_TASK_BYTES,
    mapError: (status, body, headers) => mapRunwayError(status, body, headers, [channel.apiKey]),
  });
}
