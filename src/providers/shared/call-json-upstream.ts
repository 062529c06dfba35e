/**
 * One call to a vendor's JSON API (the task and image vendors: Ark, MiniMax, the MJ proxy, Luma,
 * Runway, Replicate, BFL): the request, its status and its bounded JSON body, all within
 * `timeoutMs` (an upstream that stalls mid-answer is cut too). A non-2xx answer is thrown as the
 * vendor's own mapper says, unless the caller reads that status itself.
 *
 * What may be tried again, decided here once for every vendor, as the router fails over (a
 * retryable failure moves on to the next channel and counts against this one's circuit):
 * - a timeout (`timeout`), a connection failure (`upstream`, `upstream_unreachable`), an answer
 *   that breaks off, is larger than `maxBytes` or is not JSON (`upstream`): retryable;
 * - a client abort: not retryable (`client_closed`);
 * - an error status: what the vendor's `mapError` says (by convention 408, 429 and 5xx are
 *   retryable, other 4xx are not); its body is read up to 64 KiB, never refused, and handed over
 *   parsed when it is JSON, with its text.
 * A create that may have reached the vendor is the caller's to make non-retryable
 * (`uncertain-submit.ts`): every retryable failure without a status becomes `submit_uncertain`
 * there, except a connection that was never made.
 */
import { GatewayError } from '../../core/errors.js';
import { abortError } from './attempt-deadline.js';
import { parseJsonAnswer, readBoundedText } from './read-bounded-answer.js';
import { upstreamTraceHeaders } from '../../observability/upstream-trace-headers.js';
import { sendUpstream, type UpstreamResponse } from './upstream-http.js';

/** Error answers are read this far at most (their message is all that is used). */
const MAX_ERROR_BYTES = 64 * 1024;

export interface JsonCall {
  /** Names the upstream in messages (`Luma`, `the MJ proxy`), never its host. */
  vendor: string;
  url: string;
  method: 'GET' | 'POST' | 'DELETE';
  headers: Record<string, string>;
  /** Sent as JSON (the caller's headers say so). */
  body?: object;
  signal: AbortSignal;
  timeoutMs: number;
  /** The largest 2xx body read. */
  maxBytes: number;
  /**
   * A non-2xx answer → the error thrown; `body` is the parsed JSON, or the text when it is not
   * JSON (`undefined` when it could not be read); `text` is the body as read (cut at 64 KiB).
   */
  mapError(status: number, body: unknown, headers: UpstreamResponse['headers'], text: string): GatewayError;
  /** Error statuses the caller handles itself (answered, never thrown). */
  readStatuses?: readonly number[];
}

export interface JsonAnswer {
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
  // The attempt's trace context is found by its own signal, not the one derived here.
  const traceHeaders = upstreamTraceHeaders(call.signal);
  try {
    const response = await sendUpstream({
      url: call.url,
      method: call.method,
      headers: traceHeaders ? { ...call.headers, ...traceHeaders } : call.headers,
      body: call.body === undefined ? undefined : JSON.stringify(call.body),
      signal,
      // Our own timer cuts the whole call; undici's headers timeout only backs it up.
      timeoutMs: call.timeoutMs + 1_000,
    });
    const ok = response.status >= 200 && response.status < 300;
    if (!ok) {
      const { body, text } = await readErrorBody(response.body);
      if (call.readStatuses?.includes(response.status)) return { status: response.status, headers: response.headers, json: body };
      throw call.mapError(response.status, body, response.headers, text);
    }
    const text = await readAnswer(response.body, call);
    return { status: response.status, headers: response.headers, json: parseJsonAnswer(text, call.vendor) };
  } catch (error) {
    if (signal.aborted) throw abortError(signal);
    throw error;
  } finally {
    clearTimeout(timeout);
  }
}

async function readAnswer(body: UpstreamResponse['body'], call: JsonCall): Promise<string> {
  try {
    return await readBoundedText(body, call.maxBytes, call.vendor);
  } catch (error) {
    if (error instanceof GatewayError) throw error;
    throw new GatewayError('upstream', `${call.vendor}'s answer broke off`, { retryable: true, cause: error });
  }
}

/** An error answer's JSON, else its text (cut); never throws for a bad body. */
async function readErrorBody(body: UpstreamResponse['body']): Promise<{ body: unknown; text: string }> {
  let text = '';
  try {
    text = await readBoundedText(body, MAX_ERROR_BYTES, '');
  } catch (error) {
    if (!(error instanceof GatewayError)) return { body: undefined, text };
    // Longer than the cap: the start is all a message needs.
  }
  try {
    return { body: JSON.parse(text) as unknown, text };
  } catch {
    return { body: text === '' ? undefined : text, text };
  }
}
