/**
 * One BFL task: submit (`POST /v1/{model}` → `{id, polling_url}`), then poll the polling URL
 * until the task is `Ready`, within the attempt's deadline.
 */
import { GatewayError, isGatewayError } from '../../core/errors.js';
import { callJsonUpstream, type JsonCall } from '../shared/call-json-upstream.js';
import type { Attempt, ChannelConfig } from '../types.js';
import type { AttemptDeadline } from '../shared/attempt-deadline.js';
import { bflHeaders, bflSubmitUrl, pollIntervalMs } from './bfl-request.js';
import { checkedPollingUrl } from './bfl-polling-url.js';
import { bflTaskError, mapBflError } from './map-bfl-error.js';

interface BflSubmitted {
  id?: unknown;
  polling_url?: unknown;
}

interface BflTaskState {
  id?: string;
  status?: string;
  result?: { sample?: unknown; seed?: unknown } | null;
  details?: unknown;
}

interface BflSample {
  /** Signed delivery URL, valid for about ten minutes. */
  url: string;
  seed?: number;
}

/** A submit answer or a task state (a sample URL and a few fields). */
const MAX_ANSWER_BYTES = 256 * 1024;

/** Statuses in which the task is still being worked on. */
const IN_PROGRESS = new Set(['Pending', 'Processing', 'Queued']);

export async function runBflTask(body: Record<string, unknown>, attempt: Attempt, signal: AbortSignal, deadline: AttemptDeadline): Promise<BflSample> {
  const pollingUrl = await submit(body, attempt, signal, deadline);
  return poll(pollingUrl, attempt, signal, deadline);
}

async function submit(body: Record<string, unknown>, attempt: Attempt, signal: AbortSignal, deadline: AttemptDeadline): Promise<string> {
  const { channel } = attempt;
  const answer = await callBfl(channel, {
    url: bflSubmitUrl(channel, attempt.upstreamModel),
    method: 'POST',
    body,
    signal,
    timeoutMs: deadline.remainingMs() || 1,
  });
  const submitted = (answer.json ?? {}) as BflSubmitted;
  if (typeof submitted.id !== 'string') {
    throw new GatewayError('upstream', 'BFL accepted the task without an id', { retryable: true });
  }
  if (typeof submitted.polling_url === 'string') return checkedPollingUrl(submitted.polling_url, channel.baseUrl);
  // Older deployments answer without a polling URL: the global result endpoint serves every task.
  return `${channel.baseUrl.replace(/\/+$/, '')}/v1/get_result?id=${encodeURIComponent(submitted.id)}`;
}

/** The polling URL may name a regional host (e.g. `api.eu1.bfl.ai`); BFL wants the task polled there, with the key. */
async function poll(pollingUrl: string, attempt: Attempt, signal: AbortSignal, deadline: AttemptDeadline): Promise<BflSample> {
  const interval = pollIntervalMs(attempt.channel);
  for (;;) {
    await deadline.sleep(interval, signal);
    if (deadline.expired()) throw deadline.timeoutError('BFL task');
    const state = await fetchState(pollingUrl, attempt, signal, deadline);
    if (state === undefined) continue;
    const status = state.status ?? '';
    if (status === 'Ready') return sampleOf(state);
    if (!IN_PROGRESS.has(status)) throw bflTaskError(status || 'no status', state.details);
  }
}

/** One poll; undefined when the poll itself was rate limited (the task goes on, poll again later). */
async function fetchState(pollingUrl: string, attempt: Attempt, signal: AbortSignal, deadline: AttemptDeadline): Promise<BflTaskState | undefined> {
  try {
    const answer = await callBfl(attempt.channel, { url: pollingUrl, method: 'GET', signal, timeoutMs: deadline.remainingMs() || 1, readStatuses: [429] });
    return answer.status === 429 ? undefined : ((answer.json ?? {}) as BflTaskState);
  } catch (error) {
    if (isGatewayError(error) && error.kind === 'timeout') throw deadline.timeoutError('BFL task');
    throw error;
  }
}

/** One call to BFL over the shared JSON call (`shared/call-json-upstream.ts`). */
function callBfl(channel: ChannelConfig, call: Pick<JsonCall, 'url' | 'method' | 'body' | 'signal' | 'timeoutMs' | 'readStatuses'>) {
  return callJsonUpstream({
    ...call,
    vendor: 'BFL',
    headers: bflHeaders(channel, call.body !== undefined),
    maxBytes: MAX_ANSWER_BYTES,
    mapError: (status, _body, headers, text) => mapBflError(status, text, headers),
  });
}

function sampleOf(state: BflTaskState): BflSample {
  const sample = state.result?.sample;
  if (typeof sample !== 'string' || sample.length === 0) {
    throw new GatewayError('upstream', 'BFL reported the task Ready without a sample URL', { retryable: true });
  }
  const seed = state.result?.seed;
  return { url: sample, seed: typeof seed === 'number' ? seed : undefined };
}
