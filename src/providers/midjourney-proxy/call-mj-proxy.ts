/**
 * One call to the proxy: the request, its answer's status and its bounded JSON body, all within
 * `timeoutMs` (headers and body together: a proxy that stalls mid-answer is cut too).
 */
import { GatewayError } from '../../core/errors.js';
import { abortError } from '../shared/attempt-deadline.js';
import { sendUpstream, type UpstreamResponse } from '../shared/upstream-http.js';
import type { ChannelConfig } from '../types.js';
import { mapMjHttpError } from './map-mj-http-error.js';
import { mjHeaders, mjUrl } from './mj-request.js';
import { readMjErrorJson, readMjJson } from './read-mj-answer.js';

interface MjCall {
  channel: ChannelConfig;
  method: 'GET' | 'POST';
  /** Under `/mj`, e.g. `/task/123/fetch`. */
  path: string;
  body?: Record<string, unknown>;
  signal: AbortSignal;
  timeoutMs: number;
  maxBytes: number;
  /**
   * Whether a call whose answer was lost once the request was sent (out of time, an unreadable
   * 2xx body) may be retried on another channel. Not for a submit: the proxy may have accepted
   * the task.
   */
  retryableOnceSent: boolean;
  /** Error statuses the caller reads itself (their body is parsed best effort) instead of throwing. */
  readStatuses?: readonly number[];
}

interface MjAnswer {
  status: number;
  headers: UpstreamResponse['headers'];
  /** `undefined` for an empty body. */
  json: unknown;
}

export async function callMjProxy(call: MjCall): Promise<MjAnswer> {
  const timer = new AbortController();
  const timeout = setTimeout(() => {
    timer.abort(new GatewayError('timeout', `the MJ proxy did not answer within ${call.timeoutMs} ms`, { retryable: call.retryableOnceSent }));
  }, call.timeoutMs);
  const signal = AbortSignal.any([call.signal, timer.signal]);
  try {
    const response = await sendUpstream({
      url: mjUrl(call.channel, call.path),
      method: call.method,
      headers: mjHeaders(call.channel, call.body !== undefined),
      body: call.body === undefined ? undefined : JSON.stringify(call.body),
      signal,
      // Our own timer cuts the call; undici's headers timeout only backs it up.
      timeoutMs: call.timeoutMs + 1_000,
    });
    const ok = response.status >= 200 && response.status < 300;
    if (!ok && !call.readStatuses?.includes(response.status)) {
      throw mapMjHttpError(response.status, response.headers, await readMjErrorJson(response.body));
    }
    const json = ok ? await readAnswer(response.body, call) : await readMjErrorJson(response.body);
    return { status: response.status, headers: response.headers, json };
  } catch (error) {
    if (signal.aborted) throw abortError(signal);
    throw error;
  } finally {
    clearTimeout(timeout);
  }
}

async function readAnswer(body: UpstreamResponse['body'], call: MjCall): Promise<unknown> {
  try {
    return await readMjJson(body, call.maxBytes);
  } catch (error) {
    if (call.retryableOnceSent || !(error instanceof GatewayError) || error.kind !== 'upstream') throw error;
    throw new GatewayError(error.kind, `${error.message}; the task may have been accepted upstream`, { retryable: false, cause: error });
  }
}
