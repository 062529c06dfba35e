/** Reads an Ark answer bounded to a byte cap (a hostile upstream can be endless), then parses it as JSON. */
import { GatewayError } from '../../core/errors.js';
import { readBoundedText } from '../shared/read-bounded-answer.js';
import type { UpstreamResponse } from '../shared/upstream-http.js';

/** A create answer or one task record. */
export const ARK_TASK_ANSWER_BYTES = 256 * 1024;
/** A page of the task list (up to a poll batch of records). */
export const ARK_LIST_ANSWER_BYTES = 4 * 1024 * 1024;
/** An error body. */
const ARK_ERROR_ANSWER_BYTES = 64 * 1024;

function readArkText(body: UpstreamResponse['body'], maxBytes: number): Promise<string> {
  return readBoundedText(body, maxBytes, 'the upstream');
}

export async function readArkJson(body: UpstreamResponse['body'], maxBytes: number): Promise<unknown> {
  const text = await readArkText(body, maxBytes);
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new GatewayError('upstream', 'the upstream answered with invalid JSON', { retryable: true });
  }
}

/** An error body as text, cut at the cap rather than refused (it is only read for its code and message). */
export async function readArkErrorText(body: UpstreamResponse['body']): Promise<string> {
  try {
    return await readArkText(body, ARK_ERROR_ANSWER_BYTES);
  } catch {
    return '';
  }
}
