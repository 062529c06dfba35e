/**
 * Ark content generation tasks (Seedance) as a task provider: create at submit (once; an answer
 * lost after sending is not retried elsewhere), then `GET …/tasks/{id}` for one task or the task
 * list filtered by ids for a batch, and `DELETE …/tasks/{id}` to cancel (Ark cancels only queued
 * tasks; a running one is refused upstream and the engine cancels it locally all the same). A
 * callback URL, when the gateway has one, goes as `callback_url`: Ark posts the task record on
 * each change, which only wakes the task for a poll.
 */
import { GatewayError } from '../../core/errors.js';
import type { TaskObservation, TaskOperation, TaskRequest } from '../../core/task.js';
import { isEmptyOrDotSegment } from '../shared/path-segment.js';
import { sendUpstream } from '../shared/upstream-http.js';
import { submitFailure } from '../shared/uncertain-submit.js';
import type { ChannelConfig, TaskParts, TaskPollContext, TaskSubmission, TaskSubmitAttempt, TaskTarget } from '../types.js';
import { arkHeaders, arkTaskListUrl, arkTasksUrl, arkTaskUrl } from './ark-request.js';
import { type ArkTask, fromArkTask } from './from-ark-task.js';
import { mapArkHttpError } from './map-ark-error.js';
import { ARK_LIST_ANSWER_BYTES, ARK_TASK_ANSWER_BYTES, readArkErrorText, readArkJson } from './read-ark-answer.js';
import { toArkTaskBody } from './to-ark-task-body.js';

const MAX_TASK_ID_CHARS = 128;

/** What a poll says of a task Ark no longer knows (deleted, or older than its 7-day window). */
const LOST: TaskObservation = {
  status: 'failed',
  vendorStatus: 'not_found',
  error: { code: 'upstream_lost', message: 'The upstream no longer knows the task.' },
};

/** `maxBatch`: tasks per read of the task list (`filter.task_ids`), the descriptor's. */
export function createArkTaskProvider(maxBatch: number): TaskParts {
  return { submit, poll, pollMany: (targets, context) => pollMany(targets, context, maxBatch), cancel };
}

async function submit(operation: TaskOperation, request: TaskRequest, attempt: TaskSubmitAttempt): Promise<TaskSubmission> {
  if (operation !== 'video.generate') throw new GatewayError('invalid_request', `Ark channels do not run ${operation} tasks`);
  const { channel } = attempt;
  const body = toArkTaskBody(request, attempt.upstreamModel, attempt.callbackUrl);
  try {
    const response = await sendUpstream({
      url: arkTasksUrl(channel),
      headers: arkHeaders(channel),
      body: JSON.stringify(body),
      signal: attempt.signal,
      timeoutMs: channel.timeoutMs,
    });
    if (response.status < 200 || response.status >= 300)
      throw mapArkHttpError(response.status, await readArkErrorText(response.body), response.headers, secrets(channel));
    const answer = (await readArkJson(response.body, ARK_TASK_ANSWER_BYTES)) as { id?: unknown } | null;
    const id = answer?.id;
    if (typeof id !== 'string' || isEmptyOrDotSegment(id) || id.length > MAX_TASK_ID_CHARS || !/^[\w.:-]+$/.test(id)) {
      // Not retryable: Ark may have created the task, another channel would run it twice.
      throw new GatewayError('upstream', 'the upstream accepted the task without a usable task id', { retryable: false });
    }
    return { upstreamId: id, upstreamData: { model: body.model } };
  } catch (error) {
    throw submitFailure(error);
  }
}

async function poll(target: TaskTarget, context: TaskPollContext): Promise<TaskObservation> {
  const { channel } = context;
  const response = await sendUpstream({
    url: arkTaskUrl(channel, target.upstreamId),
    method: 'GET',
    headers: arkHeaders(channel),
    signal: context.signal,
    timeoutMs: channel.timeoutMs,
  });
  if (response.status === 404) {
    await readArkErrorText(response.body);
    return { ...LOST, error: { ...LOST.error! } };
  }
  if (response.status < 200 || response.status >= 300)
    throw mapArkHttpError(response.status, await readArkErrorText(response.body), response.headers, secrets(channel));
  const task = (await readArkJson(response.body, ARK_TASK_ANSWER_BYTES)) as ArkTask | null;
  if (task === null || typeof task !== 'object' || task.id !== target.upstreamId) {
    throw new GatewayError('upstream', 'the upstream answered another task than the one asked for', { retryable: true });
  }
  return fromArkTask(task, secrets(channel));
}

async function pollMany(targets: TaskTarget[], context: TaskPollContext, maxBatch: number): Promise<Map<string, TaskObservation>> {
  const seen = new Map<string, TaskObservation>();
  const ids = [...new Set(targets.map((target) => target.upstreamId))];
  for (let at = 0; at < ids.length; at += maxBatch) {
    const batch = ids.slice(at, at + maxBatch);
    for (const [id, observation] of await listTasks(batch, context)) seen.set(id, observation);
  }
  return seen;
}

async function listTasks(ids: string[], context: TaskPollContext): Promise<Map<string, TaskObservation>> {
  const { channel } = context;
  const response = await sendUpstream({
    url: arkTaskListUrl(channel, ids),
    method: 'GET',
    headers: arkHeaders(channel),
    signal: context.signal,
    timeoutMs: channel.timeoutMs,
  });
  if (response.status < 200 || response.status >= 300)
    throw mapArkHttpError(response.status, await readArkErrorText(response.body), response.headers, secrets(channel));
  const answer = (await readArkJson(response.body, ARK_LIST_ANSWER_BYTES)) as { items?: unknown } | null;
  if (!Array.isArray(answer?.items)) throw new GatewayError('upstream', 'the upstream answered the task list without items', { retryable: true });
  const wanted = new Set(ids);
  const found = new Map<string, TaskObservation>();
  // A server that ignored the filter could list every task of the account: only the wanted ones count.
  for (const item of answer.items.slice(0, ids.length * 4)) {
    const task = item as ArkTask | null;
    if (task === null || typeof task !== 'object' || typeof task.id !== 'string' || !wanted.has(task.id) || found.has(task.id)) continue;
    found.set(task.id, fromArkTask(task, secrets(channel)));
  }
  return found;
}

async function cancel(target: TaskTarget, context: TaskPollContext): Promise<void> {
  const { channel } = context;
  const response = await sendUpstream({
    url: arkTaskUrl(channel, target.upstreamId),
    method: 'DELETE',
    headers: arkHeaders(channel),
    signal: context.signal,
    timeoutMs: channel.timeoutMs,
  });
  const text = await readArkErrorText(response.body);
  // Already gone upstream: nothing left to cancel.
  if (response.status === 404) return;
  if (response.status < 200 || response.status >= 300) throw mapArkHttpError(response.status, text, response.headers, secrets(channel));
}

function secrets(channel: ChannelConfig): string[] {
  return [channel.apiKey];
}
