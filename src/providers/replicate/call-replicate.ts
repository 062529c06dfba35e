/**
 * One call to Replicate's predictions API over the shared JSON call (`shared/call-json-upstream.ts`),
 * and the check of a prediction answer: what tracking it needs (an id safe in a URL path, a status).
 */
import { GatewayError } from '../../core/errors.js';
import { callJsonUpstream, type JsonAnswer } from '../shared/call-json-upstream.js';
import type { ChannelConfig } from '../types.js';
import { mapReplicateError } from './map-replicate-error.js';
import { replicateHeaders } from './replicate-request.js';

/** A prediction as Replicate answers it (what the gateway reads of it). */
export interface Prediction {
  id: string;
  status: string;
  output?: unknown;
  error?: unknown;
  logs?: unknown;
  urls?: { get?: unknown; cancel?: unknown };
}

/** Predictions carry their input and logs; image models' stay far below this. */
const MAX_PREDICTION_BYTES = 4 * 1024 * 1024;
/** Replicate ids are short base32 strings; anything else is not trusted into a URL path. */
const PREDICTION_ID = /^[A-Za-z0-9_-]{1,128}$/;

interface ReplicateCall {
  url: string;
  method: 'GET' | 'POST';
  body?: object;
  signal: AbortSignal;
  timeoutMs: number;
  /** `Prefer: wait=<n>`: Replicate holds the answer up to n seconds. */
  waitSeconds?: number;
  readStatuses?: readonly number[];
}

export function callReplicate(channel: ChannelConfig, call: ReplicateCall): Promise<JsonAnswer> {
  return callJsonUpstream({
    vendor: 'Replicate',
    url: call.url,
    method: call.method,
    headers: replicateHeaders(channel, call.waitSeconds),
    body: call.body,
    signal: call.signal,
    timeoutMs: call.timeoutMs,
    maxBytes: MAX_PREDICTION_BYTES,
    mapError: (status, _body, headers, text) => mapReplicateError(status, text, headers),
    ...(call.readStatuses ? { readStatuses: call.readStatuses } : {}),
  });
}

export function checkedPrediction(json: unknown): Prediction {
  const { id, status } = (json ?? {}) as Partial<Prediction>;
  if (typeof id !== 'string' || !PREDICTION_ID.test(id) || typeof status !== 'string') {
    throw new GatewayError('upstream', 'Replicate answered without a valid prediction id or status', { retryable: true });
  }
  return json as Prediction;
}
