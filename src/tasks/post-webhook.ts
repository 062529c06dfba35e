/**
 * One webhook POST: bounded in time (the whole exchange, answer included) and in how much of the
 * receiver's answer is read. The outcome says whether the delivery is done, worth retrying, or
 * refused for good (the host resolved to a private address).
 */
import { type Dispatcher, request } from 'undici';
import { escapeControlCharacters } from '../core/client-strings.js';

/** Of a receiver's answer, at most this much is read (for the error note); the rest is dropped. */
const MAX_ANSWER_BYTES = 4096;
const MAX_NOTE_CHARS = 200;

export type PostOutcome =
  | { kind: 'delivered'; status: number }
  /** Worth retrying; `reason` says what the receiver did (its health is judged by it). */
  | { kind: 'failed'; reason: 'timeout' | 'unreachable' | 'status'; error: string }
  | { kind: 'refused'; error: string }
  /** Cancelled by the caller (the dispatcher stopping): nothing is known. */
  | { kind: 'aborted' };

interface PostWebhookInput {
  url: string;
  body: string;
  headers: Record<string, string>;
  dispatcher: Dispatcher;
  timeoutMs: number;
  signal: AbortSignal;
}

type ResponseBody = Dispatcher.ResponseData['body'];

/** Reads up to `maxBytes` of the answer and drops the rest; a failing read is no failure of the delivery. */
async function readCapped(body: ResponseBody, maxBytes: number): Promise<string> {
  body.on('error', () => undefined);
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of body) {
      chunks.push(chunk as Buffer);
      size += (chunk as Buffer).length;
      if (size >= maxBytes) break;
    }
  } catch {
    // Timed out or cut off while answering: the status line is what counts.
  } finally {
    if (!body.destroyed) body.destroy();
  }
  return Buffer.concat(chunks).subarray(0, maxBytes).toString('utf8');
}

function errorCode(error: unknown): string | undefined {
  const found = error as { code?: unknown; cause?: { code?: unknown } } | null;
  if (typeof found?.code === 'string') return found.code;
  return typeof found?.cause?.code === 'string' ? found.cause.code : undefined;
}

/** A receiver's answer or a network message, for `last_error`: one line, control characters escaped (PostgreSQL cannot store U+0000), bounded. */
function note(text: string): string {
  const flat = escapeControlCharacters(text.replace(/\s+/g, ' ').trim());
  return flat.length <= MAX_NOTE_CHARS ? flat : `${flat.slice(0, MAX_NOTE_CHARS)}…`;
}

export async function postWebhook(input: PostWebhookInput): Promise<PostOutcome> {
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, input.timeoutMs);
  const onCancel = (): void => controller.abort();
  input.signal.addEventListener('abort', onCancel, { once: true });
  try {
    return await exchange(input, controller.signal, () => timedOut);
  } finally {
    clearTimeout(timer);
    input.signal.removeEventListener('abort', onCancel);
  }
}

async function exchange(input: PostWebhookInput, signal: AbortSignal, timedOut: () => boolean): Promise<PostOutcome> {
  let response: Dispatcher.ResponseData;
  try {
    response = await request(input.url, { method: 'POST', body: input.body, headers: input.headers, dispatcher: input.dispatcher, signal });
  } catch (error) {
    if (input.signal.aborted) return { kind: 'aborted' };
    if (timedOut()) return { kind: 'failed', reason: 'timeout', error: `the receiver did not answer within ${input.timeoutMs} ms` };
    const code = errorCode(error);
    if (code === 'EPRIVATEADDRESS' || String((error as Error)?.message).includes('private address')) {
      return { kind: 'refused', error: 'the URL resolves to a private or loopback address, which the gateway does not call' };
    }
    return { kind: 'failed', reason: 'unreachable', error: `the receiver could not be reached (${code ?? note(String((error as Error)?.message ?? error))})` };
  }
  const answer = await readCapped(response.body, MAX_ANSWER_BYTES);
  const status = response.statusCode;
  if (status >= 200 && status < 300) return { kind: 'delivered', status };
  if (input.signal.aborted) return { kind: 'aborted' };
  const redirect = status >= 300 && status < 400 ? ' (redirects are not followed)' : '';
  const text = note(answer);
  return { kind: 'failed', reason: 'status', error: `the receiver answered HTTP ${status}${redirect}${text ? `: ${text}` : ''}` };
}
