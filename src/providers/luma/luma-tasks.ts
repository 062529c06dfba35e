/**
 * Luma's Dream Machine as a task provider (videogen3 and any video surface): a generation is
 * created at submit, read on the engine's schedule, deleted on cancel. With a callback URL the
 * generation also carries Luma's `callback_url`, which only wakes the task for a poll.
 */
import { GatewayError } from '../../core/errors.js';
import type { TaskObservation, TaskOperation, TaskRequest } from '../../core/task.js';
import { submitFailure } from '../shared/uncertain-submit.js';
import { callJsonUpstream, type JsonCall } from '../shared/call-json-upstream.js';
import type { ChannelConfig, TaskParts, TaskPollContext, TaskSubmission, TaskSubmitAttempt, TaskTarget } from '../types.js';
import { lumaGenerationUrl, lumaHeaders, lumaUrl } from './luma-request.js';
import { mapLumaError } from './map-luma-error.js';
import { type LumaGeneration, observeLumaGeneration } from './observe-luma-generation.js';
import { toLumaGeneration } from './to-luma-generation.js';

/** A generation echoes its request; a few keyframe URLs and a prompt stay far below this. */
const MAX_GENERATION_BYTES = 1024 * 1024;
/** Luma's ids are UUIDs; anything else is not trusted into a URL path. */
const GENERATION_ID = /^[A-Za-z0-9_-]{1,128}$/;

/** What a read says of a generation Luma no longer has (deleted, or never there). */
const LOST: TaskObservation = {
  status: 'failed',
  vendorStatus: 'not_found',
  error: { code: 'upstream_lost', message: 'Luma no longer knows the generation.' },
};

export function createLumaTaskProvider(): TaskParts {
  return {
    async submit(operation: TaskOperation, request: TaskRequest, attempt: TaskSubmitAttempt): Promise<TaskSubmission> {
      if (operation !== 'video.generate') throw new GatewayError('invalid_request', `Luma channels do not run ${operation} tasks`);
      const { channel } = attempt;
      const body = toLumaGeneration(request, attempt.upstreamModel, attempt.callbackUrl);
      try {
        const answer = await callLuma(channel, attempt.signal, { method: 'POST', url: lumaUrl(channel, '/generations/video'), body });
        const generation = checkedGeneration(answer.json);
        return { upstreamId: generation.id as string, observation: observeLumaGeneration(generation, [channel.apiKey]) };
      } catch (error) {
        throw submitFailure(error);
      }
    },

    async poll(target: TaskTarget, context: TaskPollContext): Promise<TaskObservation> {
      const { channel } = context;
      const answer = await callLuma(channel, context.signal, { method: 'GET', url: lumaGenerationUrl(channel, target.upstreamId), readStatuses: [404] });
      if (answer.status === 404) return { ...LOST, error: { ...LOST.error! } };
      const generation = checkedGeneration(answer.json);
      if (generation.id !== target.upstreamId) {
        throw new GatewayError('upstream', 'Luma answered another generation than the one asked for', { retryable: true });
      }
      return observeLumaGeneration(generation, [channel.apiKey]);
    },

    /** Luma documents no cancel: deleting the generation stops it being worked on and billed to us further. */
    async cancel(target: TaskTarget, context: TaskPollContext): Promise<void> {
      const { channel } = context;
      await callLuma(channel, context.signal, { method: 'DELETE', url: lumaGenerationUrl(channel, target.upstreamId), readStatuses: [404] });
    },
  };
}

function callLuma(channel: ChannelConfig, signal: AbortSignal, call: Pick<JsonCall, 'method' | 'url' | 'body' | 'readStatuses'>) {
  return callJsonUpstream({
    ...call,
    vendor: 'Luma',
    headers: lumaHeaders(channel, call.body !== undefined),
    signal,
    timeoutMs: channel.timeoutMs,
    maxBytes: MAX_GENERATION_BYTES,
    mapError: (status, body, headers) => mapLumaError(status, body, headers, [channel.apiKey]),
  });
}

function checkedGeneration(json: unknown): LumaGeneration {
  const generation = (json ?? {}) as LumaGeneration;
  if (typeof json !== 'object' || Array.isArray(json) || typeof generation.id !== 'string' || !GENERATION_ID.test(generation.id)) {
    throw new GatewayError('upstream', 'Luma answered without a valid generation id', { retryable: true });
  }
  if (typeof generation.state !== 'string') throw new GatewayError('upstream', 'Luma answered a generation without a state', { retryable: true });
  return generation;
}
