/**
 * A relayed Responses answer (OpenAI's, untranslated) on its way to the client: a stream is
 * rewritten event by event as its bytes arrive (`RelayedAnswer`: the gateway's ids, the public
 * model, sealed reasoning), never held whole; a JSON answer is read whole, rewritten and sent.
 * The terminal event (`response.completed`, `.incomplete`, `.failed`) and the JSON answer wait
 * for `keep` — the gateway saving the response — so a follow-up sent the instant the client sees
 * the end finds it, as on a translated route. Events that are not JSON objects pass unchanged.
 */
import type { Readable } from 'node:stream';
import { GatewayError, isGatewayError } from '../../core/errors.js';
import type { ResponseItem } from '../../core/responses.js';
import { SseDecoder, type SseEvent, sseData, sseEvent } from '../../core/sse.js';
import type { RelayedAnswer } from './relay-answer.js';
import { responsesStreamErrorFrame } from './render-stream-error.js';

type Json = Record<string, unknown>;

/** Saves the response in full before the client sees its end. */
export type KeepResponse = (object: Json, outputItems: ResponseItem[]) => Promise<void>;

const TERMINAL_EVENTS: ReadonlySet<string> = new Set(['response.completed', 'response.incomplete', 'response.failed']);
/** A JSON answer larger than this is not a response OpenAI sends (image results included). */
const MAX_JSON_ANSWER_BYTES = 64 * 1024 * 1024;

export async function* relayResponsesStream(
  body: AsyncIterable<Buffer | string> | Iterable<Buffer | string>,
  answer: RelayedAnswer,
  keep: KeepResponse,
): AsyncGenerator<string> {
  const decoder = new SseDecoder();
  for await (const chunk of body) {
    const out = yield* relayEvents(decoder.push(chunk), answer, keep);
    if (out === 'stop') return;
  }
  yield* relayEvents(decoder.end(), answer, keep);
}

/** Yields the events' frames (one string for the events of a chunk); 'stop' when the response could not be kept. */
async function* relayEvents(events: SseEvent[], answer: RelayedAnswer, keep: KeepResponse): AsyncGenerator<string, 'stop' | undefined> {
  let out = '';
  for (const event of events) {
    const parsed = jsonObject(event.data);
    if (parsed === undefined) {
      out += frame(event.event, event.data);
      continue;
    }
    const full = answer.event(parsed);
    const type = event.event ?? (typeof parsed.type === 'string' ? parsed.type : undefined);
    if (type !== undefined && TERMINAL_EVENTS.has(type) && isJson(full.response)) {
      try {
        await keep(full.response, full.response.output as ResponseItem[]);
      } catch (error) {
        yield `${out}${responsesStreamErrorFrame(notKept(error), sequenceOf(parsed))}`;
        return 'stop';
      }
    }
    out += frame(event.event, JSON.stringify(answer.forClient(full)));
  }
  if (out.length > 0) yield out;
  return undefined;
}

/** A JSON answer rewritten and kept; the upstream's bytes when they are not a response object. */
export async function relayResponsesJson(body: Readable | Buffer, answer: RelayedAnswer, keep: KeepResponse): Promise<Json | Buffer> {
  const bytes = Buffer.isBuffer(body) ? body : await readWhole(body);
  const parsed = jsonObject(bytes.toString('utf8'));
  if (parsed === undefined) return bytes;
  const { object, outputItems } = answer.object(parsed);
  await keep(object, outputItems);
  return answer.forClient(object);
}

async function readWhole(body: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
    size += bytes.length;
    if (size > MAX_JSON_ANSWER_BYTES) {
      body.destroy();
      // Nothing is wrong with the upstream: the answer is too large to relay whole, and the client's fix is a stream.
      throw new GatewayError('upstream', `the upstream's answer is larger than the ${MAX_JSON_ANSWER_BYTES} bytes gengate relays as JSON; ask for a stream`, {
        errorType: 'client.too_large',
      });
    }
    chunks.push(bytes);
  }
  return Buffer.concat(chunks, size);
}

function frame(name: string | undefined, data: string): string {
  if (data.includes('\n'))
    return `${name === undefined ? '' : `event: ${name}\n`}${data
      .split('\n')
      .map((line) => `data: ${line}\n`)
      .join('')}\n`;
  return name === undefined ? sseData(data) : sseEvent(name, data);
}

function jsonObject(text: string): Json | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return isJson(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

function isJson(value: unknown): value is Json {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function notKept(error: unknown): GatewayError {
  return isGatewayError(error) ? error : new GatewayError('internal', 'the response could not be stored', { cause: error });
}

function sequenceOf(event: Json): number | undefined {
  return typeof event.sequence_number === 'number' ? event.sequence_number : undefined;
}
