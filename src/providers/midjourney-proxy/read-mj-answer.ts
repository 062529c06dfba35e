/**
 * Reads an answer of the proxy: the body bounded to a byte cap (a task list can be large, a
 * hostile upstream can be endless), then parsed as JSON. An empty body is `undefined` (the
 * proxy answers a fetch of an unknown task with an empty 200).
 */
import { parseJsonAnswer, readBoundedText } from '../shared/read-bounded-answer.js';
import type { UpstreamResponse } from '../shared/upstream-http.js';

/** A submit answer, a task record or an image-seed answer. */
export const MJ_SMALL_ANSWER_BYTES = 1024 * 1024;
/** `list-by-condition` answers carry up to a batch of full records. */
export const MJ_LIST_ANSWER_BYTES = 4 * 1024 * 1024;

function readMjText(body: UpstreamResponse['body'], maxBytes: number): Promise<string> {
  return readBoundedText(body, maxBytes, 'the MJ proxy');
}

/** Parsed JSON; `undefined` for an empty body; a malformed one is the upstream's fault. */
export async function readMjJson(body: UpstreamResponse['body'], maxBytes: number): Promise<unknown> {
  return parseJsonAnswer(await readMjText(body, maxBytes), 'the MJ proxy');
}

/** Parsed JSON of an error answer, or `undefined` when it is not JSON (never throws for a bad body). */
export async function readMjErrorJson(body: UpstreamResponse['body']): Promise<unknown> {
  try {
    const text = await readMjText(body, 64 * 1024);
    return text.trim() === '' ? undefined : (JSON.parse(text) as unknown);
  } catch {
    return undefined;
  }
}
