/**
 * One call to the proxy over the shared JSON call (`shared/call-json-upstream.ts`): the request,
 * its answer's status and its bounded JSON body, all within `timeoutMs` (headers and body
 * together: a proxy that stalls mid-answer is cut too).
 */
import { callJsonUpstream, type JsonAnswer } from '../shared/call-json-upstream.js';
import type { ChannelConfig } from '../types.js';
import { mapMjHttpError } from './map-mj-http-error.js';
import { mjHeaders, mjUrl } from './mj-request.js';

/** A submit answer, a task record or an image-seed answer. */
export const MJ_SMALL_ANSWER_BYTES = 1024 * 1024;
/** `list-by-condition` answers carry up to a batch of full records. */
export const MJ_LIST_ANSWER_BYTES = 4 * 1024 * 1024;

interface MjCall {
  channel: ChannelConfig;
  method: 'GET' | 'POST';
  /** Under `/mj`, e.g. `/task/123/fetch`. */
  path: string;
  body?: Record<string, unknown>;
  signal: AbortSignal;
  timeoutMs: number;
  maxBytes: number;
  /** Error statuses the caller reads itself (their body is parsed best effort) instead of throwing. */
  readStatuses?: readonly number[];
}

export function callMjProxy(call: MjCall): Promise<JsonAnswer> {
  return callJsonUpstream({
    vendor: 'the MJ proxy',
    url: mjUrl(call.channel, call.path),
    method: call.method,
    headers: mjHeaders(call.channel, call.body !== undefined),
    body: call.body,
    signal: call.signal,
    timeoutMs: call.timeoutMs,
    maxBytes: call.maxBytes,
    mapError: (status, body, headers) => mapMjHttpError(status, headers, body),
    ...(call.readStatuses ? { readStatuses: call.readStatuses } : {}),
  });
}
