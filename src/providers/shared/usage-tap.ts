/**
 * Relays an upstream pass-through answer while reading from it what billing needs: usage,
 * whether the body ended normally, and the text produced so far (to bill a stream cut short).
 * SSE events are decoded as they pass and each is shown to a per-dialect reader, which may
 * also rewrite or drop it; JSON answers are read whole (bounded) before they are relayed, so
 * they can be rewritten and sized.
 */
import { isUtf8 } from 'node:buffer';
import { Readable, Transform } from 'node:stream';
import { GatewayError } from '../../core/errors.js';
import { SseDecoder, type SseEvent } from '../../core/sse.js';
import type { TapResult } from '../../core/passthrough.js';
import { PRODUCED_TEXT_LIMIT, TextCollector } from '../../core/text-collector.js';
import { mergeUsage, type Usage } from '../../core/usage.js';
import { ByteEdits } from './byte-edits.js';

/** JSON answers up to this size are read whole (rewritten, usage read); larger ones are relayed as they are. */
export const JSON_TAP_LIMIT = 4 * 1024 * 1024;

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
 * One complete event as received, of the common shape `[event: NAME\n]data: DATA\n\n`:
 * offsets into `bytes` (its data `[dataStart, dataEnd)`, its name `[nameStart, nameEnd)`, both
 * -1 when it has none).
 */
export interface EventBytes {
  bytes: Buffer;
  nameStart: number;
  nameEnd: number;
  dataStart: number;
  dataEnd: number;
}

/**
 * Looks at one event in the received bytes, before (and usually instead of) decoding it:
 * true relays it as received, with the edits it recorded (if any) applied, and reads nothing
 * from it; false decodes it and hands it to the `SseEventReader` (its edits are dropped).
 * Edits must lie inside the event. Must answer false for any event the reader would read
 * something from, and for the `lastRewrite` event.
 */
export type InPlaceReader = (event: EventBytes, edits: ByteEdits) => boolean;

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
   * was produced): the relayed chunks are kept (bounded) and decoded again then.
   */
  producedTextOf?: (event: SseEvent, emit: (text: string) => void) => void;
  /**
   * True for the last event that may need rewriting (e.g. Anthropic's `message_start`, the only
   * one naming the model): from the next clean chunk boundary on, chunks are relayed as they came.
   */
  lastRewrite?: (event: SseEvent) => boolean;
  /**
   * Handles the common events on their bytes, without decoding and re-encoding them. Used while
   * the stream has no `\r` (from the first chunk that has one on, every event is decoded).
   */
  inPlace?: InPlaceReader;
  /** Runs once the upstream's stream has ended, with what was read; the relay's last bytes and its end wait for it. */
  beforeEnd?: (result: TapResult) => Promise<unknown>;
  /** When the source fails: the bytes to end the relay with instead of failing it (`RawChatRequest.cutEvent`). */
  cutEvent?: () => string | undefined;
}

/** Relayed bytes kept for reading the produced text of a cut stream. */
const KEPT_BYTES_LIMIT = 4 * PRODUCED_TEXT_LIMIT;
const BLANK_LINE = Buffer.from('\n\n');
/** An incomplete event held back longer than this turns the in-place relay off for the rest of the stream. */
const IN_PLACE_CARRY_LIMIT = 64 * 1024;

/**
 * Taps an SSE answer. With `inPlace`, the source's chunks are handed over: edits that make
 * nothing longer are made in the received chunk itself, so the source must not read or reuse
 * a chunk once it has pushed it (true of an undici response body, whose chunks are views of
 * buffers each socket read allocates anew).
 */
export function tapSse(source: Readable, read: SseEventReader, options: SseTapOptions): TappedBody {
  const decoder = new SseDecoder({ keepRaw: options.rewrites });
  const { producedTextOf, inPlace, beforeEnd, cutEvent } = options;
  const usage: Usage = { inputTokens: 0, outputTokens: 0 };
  let seenUsage = false;
  const produced = new TextCollector(PRODUCED_TEXT_LIMIT);
  const findings: TapFindings = {
    usage(found) {
      seenUsage = true;
      mergeUsage(usage, found);
    },
    text(text) {
      produced.add(text);
    },
  };
  // The chunks as relayed (references, no copies): decoded again only if the stream is cut.
  const kept: Buffer[] = [];
  let keptSize = 0;
  const keep = (bytes: Buffer): void => {
    if (!producedTextOf || keptSize >= KEPT_BYTES_LIMIT) return;
    kept.push(bytes);
    keptSize += bytes.length;
  };
  let settled = false;
  let settle!: (completed: boolean) => void;
  /** Set when the source failed and `cutEvent` gave the bytes to end the relay with. */
  let endEvent: string | undefined;
  const result = new Promise<TapResult>((resolve) => {
    settle = (completed) => {
      if (settled) return;
      settled = true;
      if (!completed && producedTextOf) producedTextOfChunks(kept, producedTextOf, findings.text);
      kept.length = 0;
      const tapped: TapResult = { completed, producedText: produced.text() };
      if (seenUsage) tapped.usage = usage;
      resolve(tapped);
    };
  });
  let rewriting = options.rewrites;
  let rewritesDone = false;
  /** Whether the last `relay` changed or dropped any event (else it returned the events' raw text). */
  let relayChanged = false;
  /** Reads decoded events; while rewriting, returns what to relay for them. */
  const relay = (events: SseEvent[]): string => {
    let out = '';
    relayChanged = false;
    for (const event of events) {
      if (rewriting && options.lastRewrite?.(event)) rewritesDone = true;
      const data = read(event, findings);
      if (!rewriting) continue;
      if (data === event.data) out += event.raw!;
      else {
        relayChanged = true;
        if (data !== null) out += reframe(event, data);
      }
    }
    return out;
  };

  let inPlaceOn = inPlace !== undefined;
  /** With `inPlace`: received bytes after the last complete event (held back while rewriting). */
  let carry: Buffer | undefined;
  const view: EventBytes = { bytes: BLANK_LINE, nameStart: -1, nameEnd: -1, dataStart: 0, dataEnd: 0 };
  const edits = new ByteEdits();
  /**
   * Reads the complete events of `bytes`; while rewriting, records in `edits` what to relay
   * instead of the bytes received. Returns where the rest (an incomplete event) begins.
   */
  const scan = (bytes: Buffer): number => {
    let pos = 0;
    let validUtf8: boolean | undefined;
    for (;;) {
      const idle = decoder.isIdle();
      let end = idle ? commonEventAt(bytes, pos, view) : OTHER_SHAPE;
      if (end === INCOMPLETE) break;
      if (end !== OTHER_SHAPE) {
        const mark = edits.count;
        if (inPlace!(view, edits)) {
          pos = end;
          continue;
        }
        edits.truncate(mark);
      } else {
        const blank = bytes.indexOf(BLANK_LINE, pos);
        if (blank === -1) break;
        end = blank + 2;
      }
      const out = relay(decoder.push(bytes.subarray(pos, end)));
      // Events read and kept as they came need no edit when their text is exactly these bytes: nothing
      // held before or after, and the bytes valid UTF-8 (so decoding changed nothing; checked once a chunk).
      if (rewriting) {
        let unchanged = idle && !relayChanged && decoder.isIdle();
        if (unchanged) {
          validUtf8 ??= isUtf8(bytes);
          unchanged = validUtf8;
        }
        if (!unchanged) edits.replace(pos, end, out.length > 0 ? Buffer.from(out, 'utf8') : undefined);
      }
      pos = end;
    }
    return pos;
  };

  const tap = new Transform({
    transform(chunk: Buffer, _enc, callback) {
      // A \r, or an event too long to be a delta (each chunk would copy and scan it again), goes to the decoder.
      if (inPlaceOn && (chunk.indexOf(13 /* \r */) !== -1 || (carry?.length ?? 0) > IN_PLACE_CARRY_LIMIT)) inPlaceOn = false;
      if (inPlaceOn) {
        const bytes = carry === undefined ? chunk : Buffer.concat([carry, chunk]);
        const wasRewriting = rewriting;
        const rest = scan(bytes);
        carry = rest < bytes.length ? bytes.subarray(rest) : undefined;
        if (!wasRewriting) {
          edits.clear();
          keep(chunk);
          return callback(null, chunk);
        }
        if (rewritesDone && carry === undefined && decoder.stopKeepingRaw()) rewriting = false;
        // The edits may be made in the received bytes themselves: what is kept is what was relayed.
        const out = rest > 0 ? edits.apply(bytes, rest) : undefined;
        if (out !== undefined) keep(out);
        return callback(null, out);
      }
      // A carry held back while rewriting was not relayed yet (otherwise it went out, and was kept, with its chunk).
      if (carry !== undefined && rewriting) keep(carry);
      keep(chunk);
      // Held back before this chunk showed a \r: decoded first (and relayed, while rewriting).
      let out = carry === undefined ? '' : relay(decoder.push(carry));
      carry = undefined;
      if (!rewriting) {
        relay(decoder.push(chunk));
        return callback(null, chunk);
      }
      out += relay(decoder.push(chunk));
      if (rewritesDone && decoder.stopKeepingRaw()) rewriting = false;
      callback(null, out.length > 0 ? out : undefined);
    },
    flush(callback) {
      let last = '';
      if (endEvent !== undefined) {
        // Cut: an unfinished event held back is dropped; the dialect's error event ends the relay.
        last = endEvent;
        settle(false);
      } else {
        const held = carry === undefined ? '' : relay(decoder.push(carry));
        carry = undefined;
        // Not rewriting, a carry went out with its chunk: only reading it was left.
        if (rewriting) last = held + relay(decoder.end()) + decoder.takeRaw();
        else relay(decoder.end());
        settle(true);
      }
      const end = (): void => callback(null, last.length > 0 ? last : undefined);
      if (beforeEnd) void result.then(beforeEnd).then(end, end);
      else end();
    },
  });
  tap.on('close', () => settle(false));
  source.on('error', (error) => {
    endEvent = tap.destroyed || tap.writableEnded ? undefined : cutEvent?.();
    if (endEvent === undefined) tap.destroy(error);
    else tap.end();
  });
  source.pipe(tap);
  return { body: tap, result };
}

/** `commonEventAt`: the event at the position is not of the common shape (decode it). */
const OTHER_SHAPE = -1;
/** `commonEventAt`: the bytes end before the event at the position does. */
const INCOMPLETE = -2;

/**
 * Fills `view` with the event that starts at `start` when it has the common shape (an optional
 * `event:` line, one `data:` line, a blank line) and returns where it ends; `OTHER_SHAPE` when
 * it has another, `INCOMPLETE` when the bytes end before it is seen whole.
 */
function commonEventAt(bytes: Buffer, start: number, view: EventBytes): number {
  let line = start;
  view.nameStart = -1;
  view.nameEnd = -1;
  // Too short to tell (and possibly a short event of another shape): the blank-line search decides.
  if (line + 6 > bytes.length) return OTHER_SHAPE;
  // "event:"
  if (
    bytes[line] === 101 &&
    bytes[line + 1] === 118 &&
    bytes[line + 2] === 101 &&
    bytes[line + 3] === 110 &&
    bytes[line + 4] === 116 &&
    bytes[line + 5] === 58
  ) {
    let at = line + 6;
    if (bytes[at] === 32) at++;
    const lineEnd = bytes.indexOf(10, at);
    if (lineEnd === -1) return INCOMPLETE;
    view.nameStart = at;
    view.nameEnd = lineEnd;
    line = lineEnd + 1;
  }
  // "data:"
  if (!(bytes[line] === 100 && bytes[line + 1] === 97 && bytes[line + 2] === 116 && bytes[line + 3] === 97 && bytes[line + 4] === 58)) return OTHER_SHAPE;
  let at = line + 5;
  if (bytes[at] === 32) at++;
  const lineEnd = bytes.indexOf(10, at);
  if (lineEnd === -1 || lineEnd + 1 >= bytes.length) return INCOMPLETE;
  if (bytes[lineEnd + 1] !== 10) return OTHER_SHAPE;
  view.bytes = bytes;
  view.dataStart = at;
  view.dataEnd = lineEnd;
  return lineEnd + 2;
}

/** The produced text of the complete events in the kept chunks. */
function producedTextOfChunks(chunks: Buffer[], producedTextOf: NonNullable<SseTapOptions['producedTextOf']>, emit: (text: string) => void): void {
  const decoder = new SseDecoder();
  for (const chunk of chunks) for (const event of decoder.push(chunk)) producedTextOf(event, emit);
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
  /**
   * The same rewrite done on the answer's bytes (the same bytes when nothing changes), or
   * undefined when it cannot be: then `rewrite` runs on the decoded text.
   */
  rewriteBytes?: (bytes: Buffer) => Buffer | undefined;
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
export function tapJson(source: Readable, options: JsonTapOptions, limit = JSON_TAP_LIMIT): Promise<TappedJson> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const stop = (): void => {
      source.off('data', onData);
      source.off('end', onEnd);
      source.off('error', onBreak);
      source.off('close', onBreak);
    };
    const onData = (chunk: Buffer | string): void => {
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      chunks.push(bytes);
      size += bytes.length;
      if (size <= limit) return;
      stop();
      source.pause();
      resolve(relayRest(chunks, source[Symbol.asyncIterator]() as AsyncIterator<Buffer>));
    };
    const onEnd = (): void => {
      stop();
      resolve(wholeJson(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, size), options));
    };
    const onBreak = (error?: unknown): void => {
      stop();
      reject(
        new GatewayError('upstream', 'the upstream answer broke off before it was complete', { retryable: true, cause: error ?? new Error('premature close') }),
      );
    };
    source.on('data', onData);
    source.on('end', onEnd);
    source.on('error', onBreak);
    source.on('close', onBreak);
  });
}

function wholeJson(received: Buffer, options: JsonTapOptions): TappedJson {
  let bytes = received;
  let text: string | undefined;
  // Relayed as decoded text (so bytes that are not UTF-8 go out as U+FFFD, as they always did) unless the bytes can be kept.
  let rewritten: Buffer | undefined;
  if (isUtf8(received)) rewritten = options.rewrite ? options.rewriteBytes?.(received) : received;
  if (rewritten) bytes = rewritten;
  else {
    text = received.toString('utf8');
    if (options.rewrite) text = options.rewrite(text);
    bytes = Buffer.from(text, 'utf8');
  }
  const usage = readJsonUsage(bytes, text, options);
  return {
    body: bytes,
    length: bytes.length,
    result: Promise.resolve(usage ? { usage, completed: true, producedText: '' } : { completed: true, producedText: '' }),
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

/** Usage of the answer: `text` when it was decoded (and rewritten) already, else read from the bytes. */
function readJsonUsage(bytes: Buffer, text: string | undefined, options: JsonTapOptions): Usage | undefined {
  try {
    const { usageKey } = options;
    let document: unknown;
    if (usageKey === undefined) document = JSON.parse(text ?? bytes.toString('utf8'));
    else {
      const usage = text === undefined ? lastObjectInBytes(bytes, usageKey) : lastObjectAt(text, usageKey);
      document = usage === undefined ? JSON.parse(text ?? bytes.toString('utf8')) : { [usageKey]: usage };
    }
    const found = options.extract(document);
    return found ? { inputTokens: 0, outputTokens: 0, ...found } : undefined;
  } catch {
    return undefined;
  }
}

/**
 * `lastObjectAt` on the UTF-8 bytes of the text: the structure it looks at is ASCII, which
 * UTF-8 never uses inside a multi-byte character, so both find the same object.
 */
export function lastObjectInBytes(bytes: Buffer, key: string): unknown {
  const at = bytes.lastIndexOf(`"${key}"`);
  if (at === -1) return undefined;
  let i = skipSpace(bytes, at + Buffer.byteLength(key) + 2);
  if (bytes[i] !== 58 /* : */) return undefined;
  i = skipSpace(bytes, i + 1);
  if (bytes[i] !== 123 /* { */) return undefined;
  const start = i;
  let depth = 0;
  let inString = false;
  for (; i < bytes.length; i++) {
    const ch = bytes[i];
    if (inString) {
      if (ch === 92 /* \\ */) i++;
      else if (ch === 34 /* " */) inString = false;
    } else if (ch === 34) inString = true;
    else if (ch === 123 /* { */) depth++;
    else if (ch === 125 /* } */ && --depth === 0) {
      try {
        return JSON.parse(bytes.toString('utf8', start, i + 1));
      } catch {
        return undefined;
      }
    }
  }
  return undefined;
}

function skipSpace(bytes: Buffer, from: number): number {
  let i = from;
  for (let c = bytes[i]; c === 32 || c === 10 || c === 13 || c === 9; c = bytes[++i]);
  return i;
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
