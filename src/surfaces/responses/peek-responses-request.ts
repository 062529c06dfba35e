/**
 * The light reader of `POST /v1/responses`: what the routes need before anything else — the
 * model to route, whether the answer streams, is stored or runs in the background, and the
 * conversation it continues. Nothing is translated; a bad value of these fields is an
 * `invalid_request` naming it.
 */
import { checkIdentifierText } from '../../core/client-strings.js';
import { invalidRequest } from '../../core/errors.js';
import { isJsonObject, peekModel, peekStream } from '../../core/peeked-chat-request.js';
import { describe } from '../../core/validate.js';
import type { PeekedResponsesRequest } from './seams.js';

/** Longest `previous_response_id` accepted (the gateway's own are `resp_` and a few dozen characters). */
const MAX_RESPONSE_ID_CHARS = 256;

export function peekResponsesRequest(body: unknown): PeekedResponsesRequest {
  if (!isJsonObject(body)) throw invalidRequest(`body: expected an object, got ${describe(body)}`, 'body');
  const peeked: PeekedResponsesRequest = {
    model: peekModel(body.model, 'model'),
    stream: peekStream(body.stream),
    store: flag(body.store, 'store', true),
    background: flag(body.background, 'background', false),
  };
  const previous = body.previous_response_id;
  if (previous !== undefined && previous !== null) peeked.previousResponseId = responseId(previous, 'previous_response_id');
  return peeked;
}

function flag(value: unknown, param: string, fallback: boolean): boolean {
  if (value === undefined || value === null) return fallback;
  if (typeof value !== 'boolean') throw invalidRequest(`${param}: expected a boolean, got ${describe(value)}`, param);
  return value;
}

function responseId(value: unknown, param: string): string {
  if (typeof value !== 'string') throw invalidRequest(`${param}: expected a string, got ${describe(value)}`, param);
  if (value.length === 0) throw invalidRequest(`${param}: must not be empty`, param);
  if (value.length > MAX_RESPONSE_ID_CHARS) throw invalidRequest(`${param}: must be at most ${MAX_RESPONSE_ID_CHARS} characters`, param);
  return checkIdentifierText(value, param);
}
