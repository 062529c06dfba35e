/**
 * One call to a JSON task API (video vendors): the request, its status and its bounded JSON
 * body, all within `timeoutMs` (an upstream that stalls mid-answer is cut too). A non-2xx answer
 * is thrown as the vendor's own mapper says, unless the caller reads that status itself.
 */
import { GatewayError } from '../../core/errors.js';
import { abortError } from './attempt-deadline.js';
import { parseJsonAnswer, readBoundedText } from './read-bounded-answer.js';
import { sendUpstream, type UpstreamResponse } from './upstream-http.js';

/** Error answers are read this far at most (their message is all that is used). */
const MAX_ERROR_BYTES = 64 * 1024;

export interface JsonCall {
  /** Names the upstream in messages (`Luma`), never its host. */
  vendor: string;
  url: string;
  method: 'GET' | 'POST' | 'DELETE';
  headers: Record<string, string>;
  /** Sent as JSON. */
  body?: object;
  signal: AbortSignal;
  timeoutMs: number;
  /** The largest 2xx body read. */
  maxBytes: number;
  /** A non-2xx answer → the error thrown; `body` is the parsed JSON, or the text when it is not JSON. */
  mapError(status: number, body: unknown, headers: UpstreamResponse['headers']): GatewayError;
  /** Error statuses the caller handles itself (answered, never thrown). */
  readStatuses?: readonly number[];
}

interface JsonAnswer {
  status: number;
  headers: UpstreamResponse['headers'];
  /** `undefined` for an empty body. */
  json: unknown;
}

export async function callJsonUpstream(call: JsonCall): Promise<JsonAnswer> {
  const timer = new AbortController();
  const timeout = setTimeout(() => {
    timer.abort(new GatewayError('timeout', `${call.vendor} did not answer within ${call.timeoutMs} ms`, { retryable: true }));
  }, call.timeoutMs);
  const signal = AbortSignal.any([call.signal, timer.signal]);
  try {
    const response = await sendUpstream({
      url: call.url,
      method: call.method,
      headers: call.headers,
      body: call.body === undefined ? undefined : JSON.stringify(call.body),
      signal,
      // Our own timer cuts the whole call; undici's headers timeout only backs it up.
      timeoutMs: call.timeoutMs + 1_000,
    });
    const ok = response.status >= 200 && response.status < 300;
    if (!ok) {
      const body = await readErrorBody(response.body);
      if (call.readStatuses?.includes(response.status)) return { status: response.status, headers: response.headers, json: body };
      throw call.mapError(response.status, body, response.headers);
    }
    const text = await readBoundedText(response.body, call.maxBytes, call.vendor);
    return { status: response.status, headers: response.headers, json: parseJsonAnswer(text, call.vendor) };
  } catch (error) {
    if (signal.aborted) throw abortError(signal);
    throw error;
  } finally {
    clearTimeout(timeout);
  }
}

/** An error answer's JSON, else its text (cut); never throws for a bad body. */
async function readErrorBody(body: UpstreamResponse['body']): Promise<unknown> {
  let text: string;
  try {
    text = await readBoundedText(body, MAX_ERROR_BYTES, '');
  } catch {
    return undefined;
  }
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}
