/**
 * One Replicate prediction: created with `Prefer: wait` (the upstream holds the answer up to
 * that many seconds), then polled until it ends, within the attempt's deadline. A prediction
 * left behind (deadline, client gone, poll failure) is canceled, best effort, so that it stops
 * costing money.
 */
import { isGatewayError } from '../../core/errors.js';
import type { Attempt, ChannelConfig } from '../types.js';
import type { AttemptDeadline } from '../shared/attempt-deadline.js';
import { callReplicate, checkedPrediction, type Prediction } from './call-replicate.js';
import { predictionError } from './map-replicate-error.js';
import { pollIntervalMs, predictionTarget } from './replicate-request.js';
import { predictionUrl } from './prediction-urls.js';

const TERMINAL = new Set(['succeeded', 'failed', 'canceled']);
/** Replicate holds a blocking answer for at most 60 s. */
const MAX_WAIT_SECONDS = 60;
/** Asked-for waits (whole seconds) end at least this much before the deadline, so the held answer still arrives in time. */
const WAIT_MARGIN_MS = 1_000;
const CANCEL_TIMEOUT_MS = 5_000;

/** Resolves with a succeeded prediction; throws for any other ending. */
export async function runPrediction(input: Record<string, unknown>, attempt: Attempt, signal: AbortSignal, deadline: AttemptDeadline): Promise<Prediction> {
  let prediction = await create(input, attempt, signal, deadline);
  const interval = pollIntervalMs(attempt.channel);
  try {
    while (!TERMINAL.has(prediction.status)) {
      await deadline.sleep(interval, signal);
      if (deadline.expired()) throw deadline.timeoutError('Replicate prediction');
      prediction = (await fetchPrediction(prediction, attempt, signal, deadline)) ?? prediction;
    }
  } catch (error) {
    await cancelPrediction(prediction, attempt.channel);
    throw error;
  }
  if (prediction.status !== 'succeeded') throw predictionError(prediction.status, prediction.error);
  return prediction;
}

async function create(input: Record<string, unknown>, attempt: Attempt, signal: AbortSignal, deadline: AttemptDeadline): Promise<Prediction> {
  const { channel } = attempt;
  const target = predictionTarget(channel, attempt.upstreamModel);
  const waitSeconds = Math.min(MAX_WAIT_SECONDS, Math.floor((deadline.remainingMs() - WAIT_MARGIN_MS) / 1000));
  const answer = await withDeadline(deadline, () =>
    callReplicate(channel, {
      url: target.url,
      method: 'POST',
      ...(waitSeconds >= 1 ? { waitSeconds } : {}),
      body: { ...target.extraBody, input },
      signal,
      timeoutMs: deadline.remainingMs() || 1,
    }),
  );
  return checkedPrediction(answer.json);
}

/** The prediction's current state; undefined when the poll itself was rate limited (poll again later). */
async function fetchPrediction(prediction: Prediction, attempt: Attempt, signal: AbortSignal, deadline: AttemptDeadline): Promise<Prediction | undefined> {
  const { channel } = attempt;
  const answer = await withDeadline(deadline, () =>
    callReplicate(channel, {
      url: predictionUrl(channel, prediction.id, prediction.urls, 'get'),
      method: 'GET',
      signal,
      timeoutMs: deadline.remainingMs() || 1,
      readStatuses: [429],
    }),
  );
  return answer.status === 429 ? undefined : checkedPrediction(answer.json);
}

/** Best effort: the attempt is failing anyway, a failed cancel changes nothing for the client. */
async function cancelPrediction(prediction: Prediction, channel: ChannelConfig): Promise<void> {
  if (TERMINAL.has(prediction.status)) return;
  try {
    await callReplicate(channel, {
      url: predictionUrl(channel, prediction.id, prediction.urls, 'cancel'),
      method: 'POST',
      signal: new AbortController().signal,
      timeoutMs: Math.min(CANCEL_TIMEOUT_MS, channel.timeoutMs),
    });
  } catch {
    // Nothing more to do: the prediction ends on its own.
  }
}

/** An upstream call cut by the deadline is the attempt's timeout. */
async function withDeadline<T>(deadline: AttemptDeadline, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (isGatewayError(error) && error.kind === 'timeout') throw deadline.timeoutError('Replicate prediction');
    throw error;
  }
}
