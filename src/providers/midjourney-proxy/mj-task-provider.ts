/**
 * The MJ proxy as a task provider: submit once, then poll one task (`fetch`) or a batch
 * (`list-by-condition`). The proxy's notifyHook is never used: the engine's polls are the
 * only way a result comes in.
 */
import { GatewayError } from '../../core/errors.js';
import type { TaskObservation, TaskOperation, TaskRequest } from '../../core/task.js';
import { upstreamIdPathSegment } from '../shared/path-segment.js';
import { submitFailure } from '../shared/uncertain-submit.js';
import type { ChannelConfig, TaskParts, TaskPollContext, TaskSubmission, TaskSubmitAttempt, TaskTarget } from '../types.js';
import { callMjProxy, MJ_LIST_ANSWER_BYTES, MJ_SMALL_ANSWER_BYTES } from './call-mj-proxy.js';
import { fetchMjSeed } from './fetch-mj-seed.js';
import { fromMjTaskRecord, type MjTaskRecord } from './from-mj-task-record.js';
import { acceptedUpstreamId } from './map-mj-submit-answer.js';
import { toMjSubmit } from './to-mj-submit.js';

/** Seeds fetched at once when a batch brings several finished tasks. */
const SEED_CONCURRENCY = 4;

/** What a poll says of a task the proxy no longer knows (an empty answer or a 404: restarted without its store, or expired). */
const LOST: TaskObservation = {
  status: 'failed',
  vendorStatus: 'NOT_FOUND',
  error: { code: 'upstream_lost', message: 'the upstream no longer knows the task' },
};

/** `maxBatch`: ids per `list-by-condition`, the descriptor's. */
export function createMjTaskProvider(maxBatch: number): TaskParts {
  return { submit, poll, pollMany: (targets, context) => pollMany(targets, context, maxBatch) };
}

async function submit(operation: TaskOperation, request: TaskRequest, attempt: TaskSubmitAttempt): Promise<TaskSubmission> {
  const parentUpstreamId = operation === 'image.action' ? attempt.parent?.upstreamId : undefined;
  const { path, body } = toMjSubmit(operation, request, parentUpstreamId);
  const answer = await callMjProxy({
    channel: attempt.channel,
    method: 'POST',
    path,
    body,
    signal: attempt.signal,
    timeoutMs: attempt.channel.timeoutMs,
    maxBytes: MJ_SMALL_ANSWER_BYTES,
  }).catch((error: unknown) => {
    throw submitFailure(error);
  });
  // The proxy's own refusals (a `code` other than 1) say it took nothing: they keep their retryability.
  return { upstreamId: acceptedUpstreamId(answer.json) };
}

async function poll(target: TaskTarget, context: TaskPollContext): Promise<TaskObservation> {
  const answer = await callMjProxy({
    channel: context.channel,
    method: 'GET',
    path: `/task/${upstreamIdPathSegment(target.upstreamId)}/fetch`,
    signal: context.signal,
    timeoutMs: context.channel.timeoutMs,
    maxBytes: MJ_SMALL_ANSWER_BYTES,
    readStatuses: [404],
  });
  if (answer.status === 404 || answer.json === undefined || answer.json === null) return { ...LOST, error: { ...LOST.error! } };
  if (typeof answer.json !== 'object' || Array.isArray(answer.json)) {
    throw new GatewayError('upstream', 'the MJ proxy answered a task fetch without a task record', { retryable: true });
  }
  const observation = fromMjTaskRecord(answer.json as MjTaskRecord);
  await addSeeds(context, [[target.upstreamId, observation]]);
  return observation;
}

async function pollMany(targets: TaskTarget[], context: TaskPollContext, maxBatch: number): Promise<Map<string, TaskObservation>> {
  const seen = new Map<string, TaskObservation>();
  const ids = [...new Set(targets.map((target) => target.upstreamId))];
  for (let at = 0; at < ids.length; at += maxBatch) {
    const batch = ids.slice(at, at + maxBatch);
    for (const [id, observation] of await listByCondition(batch, context.channel, context.signal)) seen.set(id, observation);
  }
  await addSeeds(context, [...seen]);
  return seen;
}

async function listByCondition(ids: string[], channel: ChannelConfig, signal: AbortSignal): Promise<Map<string, TaskObservation>> {
  const answer = await callMjProxy({
    channel,
    method: 'POST',
    path: '/task/list-by-condition',
    body: { ids },
    signal,
    timeoutMs: channel.timeoutMs,
    maxBytes: MJ_LIST_ANSWER_BYTES,
  });
  if (!Array.isArray(answer.json)) throw new GatewayError('upstream', 'the MJ proxy answered list-by-condition without a list', { retryable: true });
  const wanted = new Set(ids);
  const found = new Map<string, TaskObservation>();
  for (const record of answer.json.slice(0, ids.length * 2)) {
    if (record === null || typeof record !== 'object') continue;
    const id = (record as MjTaskRecord).id;
    const key = typeof id === 'number' ? String(id) : id;
    if (typeof key !== 'string' || !wanted.has(key) || found.has(key)) continue;
    found.set(key, fromMjTaskRecord(record as MjTaskRecord));
  }
  return found;
}

/** Fetches the seed of each task just seen to succeed with an image, a few at a time. */
async function addSeeds(context: TaskPollContext, observations: Array<[string, TaskObservation]>): Promise<void> {
  const due = observations.filter(([, observation]) => observation.status === 'succeeded' && observation.outputs !== undefined);
  for (let at = 0; at < due.length; at += SEED_CONCURRENCY) {
    await Promise.all(
      due.slice(at, at + SEED_CONCURRENCY).map(async ([id, observation]) => {
        const seed = await fetchMjSeed(context.channel, id, context.signal);
        if (seed !== undefined) observation.seed = seed;
      }),
    );
  }
}
