/**
 * One call to MiniMax: Bearer key, the channel's extra headers, a bounded JSON answer. HTTP
 * errors are thrown mapped; a `base_resp` error inside a 200 is left to the caller, which knows
 * what the answer was for.
 */
import { GatewayError } from '../../core/errors.js';
import { abortError } from '../shared/attempt-deadline.js';
import { readBoundedText } from '../shared/read-bounded-answer.js';
import { readErrorText, sendUpstream, type UpstreamResponse } from '../shared/upstream-http.js';
import type { ChannelConfig } from '../types.js';
import { mapMinimaxHttpError } from './map-minimax-error.js';

/** Every answer the provider reads is small (a task id, a status, a file record). */
const MAX_ANSWER_BYTES = 256 * 1024;

interface MinimaxCall {
  channel: ChannelConfig;
  method: 'GET' | 'POST';
  /** Under `/v1`, e.g. `/query/video_generation?task_id=1`. */
  path: string;
  body?: Record<string, unknown>;
  signal: AbortSignal;
}

/** `https://api.minimax.io`, or the same with `/v1` (taken as is). */
function minimaxUrl(channel: ChannelConfig, path: string): string {
  const base = channel.baseUrl.replace(/\/+$/, '').replace(/\/v1$/, '');
  return `${base}/v1${path}`;
}

export async function callMinimax(call: MinimaxCall): Promise<Record<string, unknown>> {
  const { channel } = call;
  const response = await sendUpstream({
    url: minimaxUrl(channel, call.path),
    method: call.method,
    headers: {
      ...channel.headers,
      authorization: `Bearer ${channel.apiKey}`,
      ...(call.body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: call.body === undefined ? undefined : JSON.stringify(call.body),
    signal: call.signal,
    timeoutMs: channel.timeoutMs,
  });
  if (response.status < 200 || response.status >= 300) {
    throw mapMinimaxHttpError(response.status, await readErrorText(response.body), response.headers, [channel.apiKey]);
  }
  const text = await readBounded(response.body, call.signal);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new GatewayError('upstream', 'MiniMax answered with invalid JSON', { retryable: true });
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new GatewayError('upstream', 'MiniMax answered with something else than a JSON object', { retryable: true });
  }
  return parsed as Record<string, unknown>;
}

async function readBounded(body: UpstreamResponse['body'], signal: AbortSignal): Promise<string> {
  try {
    return await readBoundedText(body, MAX_ANSWER_BYTES, 'MiniMax');
  } catch (error) {
    if (error instanceof GatewayError) throw error;
    if (signal.aborted) throw abortError(signal);
    throw new GatewayError('upstream', "MiniMax's answer broke off", { retryable: true, cause: error });
  }
}
