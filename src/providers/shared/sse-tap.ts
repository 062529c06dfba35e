/**
 * Relays an upstream pass-through SSE answer while reading from it what billing needs: usage,
 * whether the body ended normally, and the text produced so far (to bill a stream cut short).
 * Events are decoded as they pass and each is shown to a per-dialect reader, which may also
 * rewrite or drop it; events of the common shape may be handled on the received bytes instead.
 */
import { isUtf8 } from 'node:buffer';
import { type Readable, Transform } from 'node:stream';
import type { TapResult } from '../../core/passthrough.js';
import { SseDecoder, type SseEvent } from '../../core/sse.js';
import { ByteEdits } from './byte-edits.js';
import { commonEventAt, type EventBytes, INCOMPLETE, OTHER_SHAPE } from './sse-event-bytes.js';
import { type ProducedTextOf, SseFindings, type TapFindings } from './sse-findings.js';

/**
 * Looks at one event and says what to relay: `event.data` itself keeps the frame byte for
 * byte, another string replaces its data, null drops the frame (and comment lines just before it).
 */
export type SseEventReader = (event: SseEvent, findings: TapFindings) => string | null;

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
  producedTextOf?: ProducedTextOf;
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

/**
 * Taps an SSE answer. With `inPlace`, the source's chunks are handed over: edits that make
 * nothing longer are made in the received chunk itself, so the source must not read or reuse
 * a chunk once it has pushed it (true of an undici response body, whose chunks are views of
 * buffers each socket read allocates anew).
 */
export function tapSse(source: Readable, read: SseEventReader, options: SseTapOptions): { body: Readable; result: Promise<TapResult> } {
  const { beforeEnd, cutEvent } = options;
  const findings = new SseFindings(options.producedTextOf);
  const relay = new SseRelay(read, findings, options);
  let settled = false;
  let settle!: (completed: boolean) => void;
  const result = new Promise<TapResult>((resolve) => {
    settle = (completed) => {
      if (settled) return;
      settled = true;
      resolve(findings.result(completed));
    };
  });
  /** Set when the source failed and `cutEvent` gave the bytes to end the relay with. */
  let endEvent: string | undefined;
  const tap = new Transform({
    transform(chunk: Buffer, _enc, callback) {
      callback(null, relay.chunk(chunk));
    },
    flush(callback) {
      let last: string;
      if (endEvent !== undefined) {
        // Cut: an unfinished event held back is dropped; the dialect's error event ends the relay.
        last = endEvent;
        settle(false);
      } else {
        last = relay.end();
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

/**
 * What is relayed: events one by one, rewritten where the reader says (`rewriting`); the same
 * once the `lastRewrite` event was seen, until a chunk ends on an event boundary
 * (`last-rewrite-seen`); the chunks as they came, events only read (`as-received`).
 */
type RelayState = 'rewriting' | 'last-rewrite-seen' | 'as-received';

/**
 * How events are found: on the received bytes, common shapes by `inPlace` and the others by
 * the decoder (`in-place`); by the decoder alone (`decoding`), for good once a chunk has a `\r`
 * or an event is held back too long.
 */
type ScanState = 'in-place' | 'decoding';

/** An incomplete event held back longer than this turns the in-place relay off for the rest of the stream. */
const IN_PLACE_CARRY_LIMIT = 64 * 1024;
const BLANK_LINE = Buffer.from('\n\n');

/** Reads the events of a stream chunk by chunk and says what to relay for each chunk. */
class SseRelay {
  private readonly decoder: SseDecoder;
  private readonly inPlace: InPlaceReader | undefined;
  private readonly lastRewrite: ((event: SseEvent) => boolean) | undefined;
  private relayState: RelayState;
  private scanState: ScanState;
  /** In place: received bytes after the last complete event (held back while rewriting). */
  private carry: Buffer | undefined;
  /** Whether the last `relay` changed or dropped any event (else it returned the events' raw text). */
  private relayChanged = false;
  private readonly view: EventBytes = { bytes: BLANK_LINE, nameStart: -1, nameEnd: -1, dataStart: 0, dataEnd: 0 };
  private readonly edits = new ByteEdits();

  constructor(
    private readonly read: SseEventReader,
    private readonly findings: SseFindings,
    options: SseTapOptions,
  ) {
    this.decoder = new SseDecoder({ keepRaw: options.rewrites });
    this.inPlace = options.inPlace;
    this.lastRewrite = options.lastRewrite;
    this.relayState = options.rewrites ? 'rewriting' : 'as-received';
    this.scanState = options.inPlace !== undefined ? 'in-place' : 'decoding';
  }

  /** What to relay for a received chunk; undefined for nothing yet. */
  chunk(chunk: Buffer): Buffer | string | undefined {
    // A \r, or an event too long to be a delta (each chunk would copy and scan it again), goes to the decoder.
    if (this.scanState === 'in-place' && (chunk.indexOf(13 /* \r */) !== -1 || (this.carry?.length ?? 0) > IN_PLACE_CARRY_LIMIT)) this.scanState = 'decoding';
    return this.scanState === 'in-place' ? this.chunkInPlace(chunk) : this.chunkDecoded(chunk);
  }

  /** What is left to relay once the source has ended normally. */
  end(): string {
    const held = this.carry === undefined ? '' : this.relay(this.decoder.push(this.carry));
    this.carry = undefined;
    // Not rewriting, a carry went out with its chunk: only reading it was left.
    if (this.relayState !== 'as-received') return held + this.relay(this.decoder.end()) + this.decoder.takeRaw();
    this.relay(this.decoder.end());
    return '';
  }

  private chunkInPlace(chunk: Buffer): Buffer | undefined {
    const bytes = this.carry === undefined ? chunk : Buffer.concat([this.carry, chunk]);
    const wasRewriting = this.relayState !== 'as-received';
    const rest = this.scan(bytes);
    this.carry = rest < bytes.length ? bytes.subarray(rest) : undefined;
    if (!wasRewriting) {
      this.edits.clear();
      this.findings.keep(chunk);
      return chunk;
    }
    if (this.relayState === 'last-rewrite-seen' && this.carry === undefined && this.decoder.stopKeepingRaw()) this.relayState = 'as-received';
    // The edits may be made in the received bytes themselves: what is kept is what was relayed.
    const out = rest > 0 ? this.edits.apply(bytes, rest) : undefined;
    if (out !== undefined) this.findings.keep(out);
    return out;
  }

  private chunkDecoded(chunk: Buffer): Buffer | string | undefined {
    // A carry held back while rewriting was not relayed yet (otherwise it went out, and was kept, with its chunk).
    if (this.carry !== undefined && this.relayState !== 'as-received') this.findings.keep(this.carry);
    this.findings.keep(chunk);
    // Held back before this chunk showed a \r: decoded first (and relayed, while rewriting).
    let out = this.carry === undefined ? '' : this.relay(this.decoder.push(this.carry));
    this.carry = undefined;
    if (this.relayState === 'as-received') {
      this.relay(this.decoder.push(chunk));
      return chunk;
    }
    out += this.relay(this.decoder.push(chunk));
    if (this.relayState === 'last-rewrite-seen' && this.decoder.stopKeepingRaw()) this.relayState = 'as-received';
    return out.length > 0 ? out : undefined;
  }

  /**
   * Reads the complete events of `bytes`; while rewriting, records in `edits` what to relay
   * instead of the bytes received. Returns where the rest (an incomplete event) begins.
   */
  private scan(bytes: Buffer): number {
    const { decoder, edits, view } = this;
    let pos = 0;
    let validUtf8: boolean | undefined;
    for (;;) {
      const idle = decoder.isIdle();
      let end = idle ? commonEventAt(bytes, pos, view) : OTHER_SHAPE;
      if (end === INCOMPLETE) break;
      if (end !== OTHER_SHAPE) {
        const mark = edits.count;
        if (this.inPlace!(view, edits)) {
          pos = end;
          continue;
        }
        edits.truncate(mark);
      } else {
        const blank = bytes.indexOf(BLANK_LINE, pos);
        if (blank === -1) break;
        end = blank + 2;
      }
      const out = this.relay(decoder.push(bytes.subarray(pos, end)));
      // Events read and kept as they came need no edit when their text is exactly these bytes: nothing
      // held before or after, and the bytes valid UTF-8 (so decoding changed nothing; checked once a chunk).
      if (this.relayState !== 'as-received') {
        let unchanged = idle && !this.relayChanged && decoder.isIdle();
        if (unchanged) {
          validUtf8 ??= isUtf8(bytes);
          unchanged = validUtf8;
        }
        if (!unchanged) edits.replace(pos, end, out.length > 0 ? Buffer.from(out, 'utf8') : undefined);
      }
      pos = end;
    }
    return pos;
  }

  /** Reads decoded events; while rewriting, returns what to relay for them. */
  private relay(events: SseEvent[]): string {
    let out = '';
    this.relayChanged = false;
    for (const event of events) {
      if (this.relayState !== 'as-received' && this.lastRewrite?.(event)) this.relayState = 'last-rewrite-seen';
      const data = this.read(event, this.findings);
      if (this.relayState === 'as-received') continue;
      if (data === event.data) out += event.raw!;
      else {
        this.relayChanged = true;
        if (data !== null) out += reframe(event, data);
      }
    }
    return out;
  }
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
