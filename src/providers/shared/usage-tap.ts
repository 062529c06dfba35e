/**
 * Relays an upstream pass-through answer while reading from it what billing needs: usage,
 * whether the body ended normally, and the text produced so far (to bill a stream cut short).
 * SSE events are decoded as they pass and each is shown to a per-dialect reader, which may
 * also rewrite or drop it; JSON answers are read whole (bounded) before they are relayed, so
 * they can be rewritten and sized.
 */
import { Readable, Transform } from 'node:stream';
import { GatewayError } from '../../core/errors.js';
import { SseDecoder, type SseEvent } from '../../core/sse.js';
import type { TapResult } from '../../core/passthrough.js';
import type { Usage } from '../../core/usage.js';

/** JSON answers up to this size are read whole (rewritten, usage read); larger ones are relayed as they are. */
export const JSON_TAP_LIMIT = 4 * 1024 * 1024;
/** Produced text kept for billing a cut stream, in UTF-16 code units. */
export const PRODUCED_TEXT_LIMIT = 1024 * 1024;

export interface TappedJsonBody {
  body: Readable | Buffer;
  result: Promise<TapResult>;
}

export interface TappedBody {
  body: Readable;
  result: Promise<TapResult>;
}

/** What a reader reports while looking at an event. */
export interface TapFindings {
  usage(found: Partial<Usage>): void;
  text(produced: string): void;
}

/**
 * Looks at one event and says what to relay: `event.data` itself keeps the frame byte for
 * byte, another string replaces its data, null drops the frame (and comment lines just before it).
 */
export type SseEventReader = (event: SseEvent, findings: TapFindings) => string | null;

/**
 * Taps an SSE body. With `rewrites: false` the reader's answer is ignored and chunks pass as
 * they came; otherwise each complete event is re-emitted as it was received (or as rewritten),
 * so bytes the reader keeps are relayed exactly.
 */
export interface SseTapOptions {
  /** Whether the reader may rewrite or drop events (then events are re-emitted one by one). */
  rewrites: boolean;
  /**
   * The assistant text an event carried. Used only when the stream is cut short (to bill what
   * was produced), so the events are kept (bounded) instead of read as they pass.
   */
  producedTextOf?: (event: SseEvent, emit: (text: string) => void) => void;
  /**
   * True for the last event that may need rewriting (e.g. Anthropic's `message_start`, the only
   * one naming the model): from the next clean chunk boundary on, chunks are relayed as they came.
   */
  lastRewrite?: (event: SseEvent) => boolean;
}

/** Event data kept for reading the produced text of a cut stream, in UTF-16 code units. */
const KEPT_EVENTS_LIMIT = 4 * PRODUCED_TEXT_LIMIT;

export function tapSse(source: Readable, read: SseEventReader, options: SseTapOptions): TappedBody {
  const decoder = new SseDecoder({ keepRaw: options.rewrites });
  const usage: Usage = { inputTokens: 0, outputTokens: 0 };
  let seenUsage = false;
  let produced = '';
  const findings: TapFindings = {
    usage(found) {
      seenUsage = true;
      for (const key of Object.keys(found) as Array<keyof Usage>) if (found[key] !== undefined) usage[key] = found[key]!;
    },
    text(text) {
      if (produced.length < PRODUCED_TEXT_LIMIT) produced += text.slice(0, PRODUCED_TEXT_LIMIT - produced.length);
    },
  };
  // Only the name and data of each event (not its raw text): read again only if the stream is cut.
  const kept: SseEvent[] = [];
  let keptSize = 0;
  let settled = false;
  let settle!: (completed: boolean) => void;
  const result = new Promise<TapResult>((resolve) => {
    settle = (completed) => {
      if (settled) return;
      settled = true;
      if (!completed && options.producedTextOf) for (const event of kept) options.producedTextOf(event, findings.text);
      kept.length = 0;
      resolve({ ...(seenUsage ? { usage } : {}), completed, producedText: produced });
    };
  });
  let rewriting = options.rewrites;
  let rewritesDone = false;
  const relay = (events: SseEvent[]): string => {
    let out = '';
    for (const event of events) {
      if (rewriting && options.lastRewrite?.(event)) rewritesDone = true;
      if (options.producedTextOf && keptSize < KEPT_EVENTS_LIMIT) {
        kept.push({ event: event.event, data: event.data });
        keptSize += event.data.length;
      }
      const data = read(event, findings);
      if (rewriting && data !== null) out += data === event.data ? event.raw! : reframe(event, data);
    }
    return out;
  };
  const tap = new Transform({
    transform(chunk: Buffer, _enc, callback) {
      if (!rewriting) {
        relay(decoder.push(chunk));
        return callback(null, chunk);
      }
      const out = relay(decoder.push(chunk));
      if (rewritesDone && decoder.stopKeepingRaw()) rewriting = false;
      callback(null, out.length > 0 ? out : undefined);
    },
    flush(callback) {
      if (!rewriting) {
        relay(decoder.end());
        settle(true);
        return callback();
      }
      const out = relay(decoder.end()) + decoder.takeRaw();
      settle(true);
      callback(null, out.length > 0 ? out : undefined);
    },
  });
  tap.on('close', () => settle(false));
  source.on('error', (error) => tap.destroy(error));
  source.pipe(tap);
  return { body: tap, result };
}

/** The event as received with only its data replaced; rebuilt from its fields when its data spans several lines. */
function reframe(event: SseEvent, data: string): string {
  const raw = event.raw!;
  const at = event.rawDataAt ?? -1;
  if (at >= 0) return raw.slice(0, at) + data + raw.slice(at + event.data.length);
  let out = event.event !== undefined ? `event: ${event.event}\n` : '';
  for (const line of data.split('\n')) out += `data: ${line}\n`;
  return `${out}\n`;
}

export interface JsonTapOptions {
  /** Usage from the document (or from `{ [usageKey]: … }` when `usageKey` found it). */
  extract: (document: unknown) => Partial<Usage> | undefined;
  /** Only the last `"<usageKey>": {…}` object of the text is parsed, not the whole document. */
  usageKey?: string;
  /** Rewrites the whole answer's text before it is relayed (e.g. to name the public model). */
  rewrite?: (text: string) => string;
}

export interface TappedJson extends TappedJsonBody {
  /** The relayed body's byte length when it was read whole; undefined when it is relayed as it comes. */
  length?: number;
}

/**
 * Reads a JSON answer whole (up to `JSON_TAP_LIMIT`), rewrites it, reads usage, and relays the
 * result with its length. A larger answer is relayed unchanged as it comes, without usage.
 * Throws a retryable upstream GatewayError when the body breaks off while being read.
 */
export async function tapJson(source: Readable, options: JsonTapOptions, limit = JSON_TAP_LIMIT): Promise<TappedJson> {
  const chunks: Buffer[] = [];
  let size = 0;
  const iterator = source[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  try {
    for (;;) {
      const next = await iterator.next();
      if (next.done) break;
      const chunk = typeof next.value === 'string' ? Buffer.from(next.value) : next.value;
      chunks.push(chunk);
      size += chunk.length;
      if (size > limit) return relayRest(chunks, iterator);
    }
  } catch (error) {
    throw new GatewayError('upstream', 'the upstream answer broke off before it was complete', { retryable: true, cause: error });
  }
  let text = Buffer.concat(chunks).toString('utf8');
  if (options.rewrite) text = options.rewrite(text);
  const bytes = Buffer.from(text, 'utf8');
  const usage = readJsonUsage(text, options);
  return {
    body: bytes,
    length: bytes.length,
    result: Promise.resolve({ ...(usage ? { usage } : {}), completed: true, producedText: '' }),
  };
}

function relayRest(head: Buffer[], iterator: AsyncIterator<Buffer>): TappedJson {
  let settle!: (completed: boolean) => void;
  const result = new Promise<TapResult>((resolve) => (settle = (completed) => resolve({ completed, producedText: '' })));
  async function* all(): AsyncGenerator<Buffer> {
    yield* head;
    for (;;) {
      const next = await iterator.next();
      if (next.done) break;
      yield next.value;
    }
    settle(true);
  }
  const body = Readable.from(all(), { objectMode: false });
  body.on('close', () => {
    settle(false);
    void iterator.return?.();
  });
  return { body, result };
}

function readJsonUsage(text: string, options: JsonTapOptions): Usage | undefined {
  try {
    const usage = options.usageKey === undefined ? undefined : lastObjectAt(text, options.usageKey);
    const found = options.extract(usage === undefined ? JSON.parse(text) : { [options.usageKey!]: usage });
    return found ? { inputTokens: 0, outputTokens: 0, ...found } : undefined;
  } catch {
    return undefined;
  }
}

/** The JSON object that follows the last `"key":` in the text, parsed; undefined when there is none. */
export function lastObjectAt(text: string, key: string): unknown {
  const at = text.lastIndexOf(`"${key}"`);
  if (at === -1) return undefined;
  let i = at + key.length + 2;
  while (i < text.length && (text[i] === ' ' || text[i] === '\n' || text[i] === '\r' || text[i] === '\t')) i++;
  if (text[i] !== ':') return undefined;
  i++;
  while (i < text.length && (text[i] === ' ' || text[i] === '\n' || text[i] === '\r' || text[i] === '\t')) i++;
  if (text[i] !== '{') return undefined;
  const start = i;
  let depth = 0;
  let inString = false;
  for (; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (inString) {
      if (ch === 92 /* \\ */) i++;
      else if (ch === 34 /* " */) inString = false;
    } else if (ch === 34) inString = true;
    else if (ch === 123 /* { */) depth++;
    else if (ch === 125 /* } */ && --depth === 0) {
      try {
        return JSON.parse(text.slice(start, i + 1));
      } catch {
        return undefined;
      }
    }
  }
  return undefined;
}
