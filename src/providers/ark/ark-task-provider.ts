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
import { callJsonUpstream, type JsonCall } from '../shared/call-json-upstream.js';
import { submitFailure } from '../shared/uncertain-submit.js';
import type { ChannelConfig, TaskParts, TaskPollContext, TaskSubmission, TaskSubmitAttempt, TaskTarget } from '../types.js';
import { arkHeaders, arkTaskListUrl, arkTasksUrl, arkTaskUrl } from './ark-request.js';
import { type ArkTask, fromArkTask } from './from-ark-task.js';
import { mapArkHttpError } from './map-ark-error.js';
import { toArkTaskBody } from './to-ark-task-body.js';

const MAX_TASK_ID_CHARS = 128;
/** A create answer or one task record. */
const TASK_ANSWER_BYTES = 256 * 1024;
/** A page of the task list (up to a poll batch of records). */
const LIST_ANSWER_BYTES = 4 * 1024 * 1024;

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
    const answer = (await callArk(channel, { url: arkTasksUrl(channel), method: 'POST', body, signal: attempt.signal, maxBytes: TASK_ANSWER_BYTES })).json as
      | { id?: unknown }
      | null
      | undefined;
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
  const answer = await callArk(channel, {
    url: arkTaskUrl(channel, target.upstreamId),
    method: 'GET',
    signal: context.signal,
    maxBytes: TASK_ANSWER_BYTES,
    readStatuses: [404],
  });
  if (answer.status === 404) return { ...LOST, error: { ...LOST.error! } };
  const task = answer.json as ArkTask | null | undefined;
  if (task === undefined || task === null || typeof task !== 'object' || task.id !== target.upstreamId) {
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
  const answer = (await callArk(channel, { url: arkTaskListUrl(channel, ids), method: 'GET', signal: context.signal, maxBytes: LIST_ANSWER_BYTES })).json as
    | { items?: unknown }
    | null
    | undefined;
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
  // Already gone upstream (404): nothing left to cancel.
  await callArk(channel, {
    url: arkTaskUrl(channel, target.upstreamId),
    method: 'DELETE',
    signal: context.signal,
    maxBytes: TASK_ANSWER_BYTES,
    readStatuses: [404],
  });
}

/** One call to Ark: its headers, the channel's timeout, its errors mapped with the key kept out. */
function callArk(channel: ChannelConfig, call: Pick<JsonCall, 'url' | 'method' | 'body' | 'signal' | 'maxBytes' | 'readStatuses'>) {
  return callJsonUpstream({
    ...call,
    vendor: 'Ark',
    headers: arkHeaders(channel),
    timeoutMs: channel.timeoutMs,
    mapError: (status, _body, headers, text) => mapArkHttpError(status, text, headers, secrets(channel)),
  });
}

function secrets(channel: ChannelConfig): string[] {
  return [channel.apiKey];
}
