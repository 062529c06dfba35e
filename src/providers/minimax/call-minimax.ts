/**
 * One call to MiniMax over the shared JSON call (`shared/call-json-upstream.ts`): Bearer key, the
 * channel's extra headers, a bounded JSON object. HTTP errors are thrown mapped; a `base_resp`
 * error inside a 200 is left to the caller, which knows what the answer was for.
 */
import { GatewayError } from '../../core/errors.js';
import { callJsonUpstream } from '../shared/call-json-upstream.js';
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
  const { json } = await callJsonUpstream({
    vendor: 'MiniMax',
    url: minimaxUrl(channel, call.path),
    method: call.method,
    headers: {
      ...channel.headers,
      authorization: `Bearer ${channel.apiKey}`,
      ...(call.body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: call.body,
    signal: call.signal,
    timeoutMs: channel.timeoutMs,
    maxBytes: MAX_ANSWER_BYTES,
    mapError: (status, _body, headers, text) => mapMinimaxHttpError(status, text, headers, [channel.apiKey]),
  });
  if (json === null || typeof json !== 'object' || Array.isArray(json)) {
    throw new GatewayError('upstream', 'MiniMax answered with something else than a JSON object', { retryable: true });
  }
  return json as Record<string, unknown>;
}
