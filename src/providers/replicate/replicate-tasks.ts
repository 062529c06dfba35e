/**
 * Replicate in task mode (imagegen1): the prediction is created at submit without `Prefer:
 * wait` and the engine polls it on its own schedule. With a callback URL the prediction also
 * carries a webhook for its completion, which only wakes the task for a poll.
 */
import { GatewayError } from '../../core/errors.js';
import type { TaskObservation, TaskOperation, TaskRequest } from '../../core/task.js';
import { submitFailure } from '../shared/uncertain-submit.js';
import type { ChannelConfig, TaskPollContext, TaskProvider, TaskSubmission, TaskSubmitAttempt, TaskTarget } from '../types.js';
import { callReplicate, checkedPrediction } from './call-replicate.js';
import { observePrediction } from './observe-prediction.js';
import { type PredictionUrls, predictionUrl, sameOrigin } from './prediction-urls.js';
import { replicatePollPolicy } from './replicate-poll-policy.js';
import { apiBase, predictionTarget } from './replicate-request.js';
import { toReplicateTaskInput } from './replicate-task-input.js';
import { verifyReplicateWebhook, type WebhookHeaders } from './verify-replicate-webhook.js';

const OPERATIONS: ReadonlySet<TaskOperation> = new Set<TaskOperation>(['image.generate']);

interface ReplicateTaskOptions {
  /** The clock webhook timestamps are checked against (tests move it). */
  now?: () => number;
}

export function createReplicateTaskProvider(options: ReplicateTaskOptions = {}): TaskProvider {
  const now = options.now ?? Date.now;
  return {
    operations: OPERATIONS,
    pollPolicy: replicatePollPolicy,

    async submit(operation: TaskOperation, request: TaskRequest, attempt: TaskSubmitAttempt): Promise<TaskSubmission> {
      if (!OPERATIONS.has(operation)) throw new GatewayError('invalid_request', `Replicate channels do not run ${operation} tasks`);
      const { channel } = attempt;
      const target = predictionTarget(channel, attempt.upstreamModel);
      const body = {
        ...target.extraBody,
        input: toReplicateTaskInput(request, attempt.upstreamModel),
        ...(attempt.callbackUrl ? { webhook: attempt.callbackUrl, webhook_events_filter: ['completed'] } : {}),
      };
      try {
        const answer = await callReplicate(channel, { url: target.url, method: 'POST', body, signal: attempt.signal, timeoutMs: channel.timeoutMs });
        const prediction = checkedPrediction(answer.json);
        return {
          upstreamId: prediction.id,
          upstreamData: sameOriginUrls(channel, prediction.urls),
          observation: observePrediction(prediction, [channel.apiKey]),
        };
      } catch (error) {
        throw submitFailure(error, 'prediction');
      }
    },

    async poll(target: TaskTarget, context: TaskPollContext): Promise<TaskObservation> {
      const { channel } = context;
      const answer = await callReplicate(channel, {
        url: predictionUrl(channel, target.upstreamId, storedUrls(target), 'get'),
        method: 'GET',
        signal: context.signal,
        timeoutMs: channel.timeoutMs,
      });
      const prediction = checkedPrediction(answer.json);
      if (prediction.id !== target.upstreamId) {
        throw new GatewayError('upstream', 'Replicate answered another prediction than the one asked for', { retryable: true });
      }
      return observePrediction(prediction, [channel.apiKey]);
    },

    async cancel(target: TaskTarget, context: TaskPollContext): Promise<void> {
      const { channel } = context;
      await callReplicate(channel, {
        url: predictionUrl(channel, target.upstreamId, storedUrls(target), 'cancel'),
        method: 'POST',
        signal: context.signal,
        timeoutMs: channel.timeoutMs,
      });
    },

    verifyCallback(channel: ChannelConfig, headers: WebhookHeaders, body: Buffer): boolean {
      const lowered: WebhookHeaders = {};
      for (const [name, value] of Object.entries(headers)) lowered[name.toLowerCase()] = value;
      return verifyReplicateWebhook(channel.options.webhookSecret, lowered, body, now());
    },
  };
}

/** The prediction's own URLs worth keeping: those on the channel's upstream (others are never used). */
function sameOriginUrls(channel: ChannelConfig, urls: PredictionUrls | undefined): Record<string, unknown> {
  const kept: Record<string, unknown> = {};
  const base = apiBase(channel);
  if (typeof urls?.get === 'string' && urls.get.length <= 2_048 && sameOrigin(urls.get, base)) kept.getUrl = urls.get;
  if (typeof urls?.cancel === 'string' && urls.cancel.length <= 2_048 && sameOrigin(urls.cancel, base)) kept.cancelUrl = urls.cancel;
  return kept;
}

function storedUrls(target: TaskTarget): PredictionUrls {
  return { get: target.upstreamData?.getUrl, cancel: target.upstreamData?.cancelUrl };
}
