/**
 * Reads an answer of the proxy: the body bounded to a byte cap (a task list can be large, a
 * hostile upstream can be endless), then parsed as JSON. An empty body is `undefined` (the
 * proxy answers a fetch of an unknown task with an empty 200).
 */
import { GatewayError } from '../../core/errors.js';
import type { UpstreamResponse } from '../shared/upstream-http.js';

/** A submit answer, a task record or an image-seed answer. */
export const MJ_SMALL_ANSWER_BYTES = 1024 * 1024;
/** `list-by-condition` answers carry up to a batch of full records. */
export const MJ_LIST_ANSWER_BYTES = 4 * 1024 * 1024;

export async function readMjText(body: UpstreamResponse['body'], maxBytes: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
    size += bytes.length;
    if (size > maxBytes) {
      body.on('error', () => undefined);
      body.destroy();
      throw new GatewayError('upstream', `the MJ proxy's answer is larger than ${maxBytes} bytes`, { retryable: true });
    }
    chunks.push(bytes);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** Parsed JSON; `undefined` for an empty body; a malformed one is the upstream's fault. */
export async function readMjJson(body: UpstreamResponse['body'], maxBytes: number): Promise<unknown> {
  const text = await readMjText(body, maxBytes);
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new GatewayError('upstream', 'the MJ proxy answered with invalid JSON', { retryable: true });
  }
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
