/**
 * The Responses API's `error` stream event, for a stream the gateway itself ends (the drain
 * deadline, a revoked key) after frames went out — the `errorEvent` of a relayed stream, like the
 * chat surface's `openAIStreamErrorFrame`. A translated stream that fails ends with
 * `response.failed` instead (`render-responses-stream.ts`).
 *
 * Shape: the documented one (`type`, `code`, `message`, `param`, `sequence_number` at the top),
 * and the same error once more under `error` (`type`, `code`, `message`, `param`), as OpenAI's
 * servers actually send it. Clients read one or the other; the OpenAI SDKs turn a frame with an
 * `error` object into a thrown APIError, so the client's `finalResponse()` rejects instead of
 * resolving with half a response.
 *
 * Sequence number: the caller passes the next one when it knows it (the stream renderer gives
 * one frame per string, numbered from 0, so after `n` relayed frames it is `n`). A relay of an
 * upstream's own stream does not know it; the default, `Number.MAX_SAFE_INTEGER`, sorts after
 * every event the stream carried, so a client ordering or resuming by sequence number sees the
 * error last.
 */
import type { GatewayError } from '../../core/errors.js';
import { sseEvent } from '../../core/sse.js';
import { toOpenAIErrorObject } from '../openai/render-error.js';

export function responsesStreamErrorFrame(error: GatewayError, sequenceNumber = Number.MAX_SAFE_INTEGER): string {
  const object = toOpenAIErrorObject(error);
  const { code, message, param } = object;
  return sseEvent('error', JSON.stringify({ type: 'error', sequence_number: sequenceNumber, code, message, param, error: object }));
}
