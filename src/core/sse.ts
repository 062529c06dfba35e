/**
 * Incremental server-sent-events decoder (WHATWG framing): feed it chunks as they arrive,
 * get complete events back. Handles `\n`, `\r\n` and `\r` line ends, multi-line `data:`,
 * comments, and events split anywhere across chunks.
 */
import { StringDecoder } from 'node:string_decoder';

export interface SseEvent {
  /** The `event:` field, or undefined when absent. */
  event?: string;
  /** The joined `data:` lines. */
  data: string;
  id?: string;
  /** With `keepRaw`: the event's text as received, from its first line to its blank line (comments included). */
  raw?: string;
  /** With `keepRaw`: where the value of its only `data:` line starts in `raw`; -1 when it has several or none. */
  rawDataAt?: number;
}

export class SseDecoder {
  private buffer = '';
  // StringDecoder, not a streaming TextDecoder: V8's UTF-8 decoding, about four times cheaper a chunk than ICU's.
  private readonly decoder = new StringDecoder('utf8');
  /** Nothing decoded yet: a byte order mark may start the stream (and is dropped, as the WHATWG framing says). */
  private atStart = true;
  private event: string | undefined;
  private data: string[] = [];
  private id: string | undefined;
  private sawCarriageReturn = false;
  /** The text held back ends in a \r that may be the first half of \r\n. */
  private heldCr = false;
  private keepRaw: boolean;
  private raw = '';
  private lineAt = 0;
  private dataAt = -1;

  /** `keepRaw` keeps each event's text as received, so a relay can re-emit it byte for byte. */
  constructor(options: { keepRaw?: boolean } = {}) {
    this.keepRaw = options.keepRaw === true;
  }

  /** Decodes one chunk; returns the events it completed (often none or one). */
  push(chunk: Uint8Array | string): SseEvent[] {
    let added = typeof chunk === 'string' ? chunk : this.decoder.write(chunk);
    if (this.atStart && added.length > 0) {
      this.atStart = false;
      if (added.charCodeAt(0) === 0xfeff) added = added.slice(1);
    }
    // Most upstreams use \n only: look for \r only once one was seen (each chunk is checked once).
    const addedCr = added.includes('\r');
    if (addedCr) this.sawCarriageReturn = true;
    // No line ends in this chunk: it only lengthens the line held back. Appended without looking
    // at what is held (a long line arriving in many chunks is scanned once, not once a chunk).
    if (added.indexOf('\n') === -1 && !addedCr && !this.heldCr) {
      this.buffer += added;
      return [];
    }
    this.buffer += added;
    this.heldCr = false;
    const events: SseEvent[] = [];
    const text = this.buffer;
    let start = 0;
    const lookForCr = this.sawCarriageReturn;
    while (start < text.length) {
      let end = text.indexOf('\n', start);
      const cr = lookForCr ? text.indexOf('\r', start) : -1;
      if (cr !== -1 && (end === -1 || cr < end)) {
        // A lone \r at the very end may be the first half of \r\n: wait for more.
        if (cr === text.length - 1) {
          this.heldCr = true;
          break;
        }
        end = cr;
      }
      if (end === -1) break;
      const line = text.slice(start, end);
      const next = end + (text.charCodeAt(end) === 13 && text.charCodeAt(end + 1) === 10 ? 2 : 1);
      if (this.keepRaw) {
        this.lineAt = this.raw.length;
        this.raw += text.slice(start, next);
      }
      start = next;
      this.line(line, events);
    }
    this.buffer = start === 0 ? text : text.slice(start);
    return events;
  }

  /** Flushes a final event that was not followed by a blank line. */
  end(): SseEvent[] {
    const events: SseEvent[] = [];
    if (this.buffer.length > 0) {
      if (this.keepRaw) {
        this.lineAt = this.raw.length;
        this.raw += this.buffer;
      }
      this.line(this.buffer, events);
    }
    this.buffer = '';
    this.heldCr = false;
    this.line('', events);
    return events;
  }

  /**
   * Stops keeping raw text, when nothing received is held back (no partial line or event): the
   * caller may then relay later chunks as they come. False, and nothing changed, otherwise.
   */
  stopKeepingRaw(): boolean {
    if (this.raw.length > 0 || this.buffer.length > 0) return false;
    this.keepRaw = false;
    return true;
  }

  /** True when nothing received is held back: no partial line, no event under way, no kept raw text. */
  isIdle(): boolean {
    return this.buffer.length === 0 && this.raw.length === 0 && this.data.length === 0 && this.event === undefined;
  }

  /** With `keepRaw`, after `end()`: text received after the last event (comments, blank lines), to relay too. */
  takeRaw(): string {
    const rest = this.raw;
    this.raw = '';
    return rest;
  }

  private line(line: string, events: SseEvent[]): void {
    if (line.length === 0) {
      if (this.data.length > 0 || this.event !== undefined) {
        const event: SseEvent = { event: this.event, data: this.data.join('\n'), id: this.id };
        if (this.keepRaw) {
          event.raw = this.raw;
          event.rawDataAt = this.data.length === 1 ? this.dataAt : -1;
          this.raw = '';
        }
        events.push(event);
      }
      this.event = undefined;
      this.data = [];
      return;
    }
    if (line.charCodeAt(0) === 58 /* : */) return;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.charCodeAt(0) === 32) value = value.slice(1);
    if (field === 'data') {
      if (this.keepRaw) this.dataAt = this.lineAt + line.length - value.length;
      this.data.push(value);
    } else if (field === 'event') this.event = value;
    else if (field === 'id') this.id = value;
  }
}

/** Reads an async byte stream as SSE events. */
export async function* readSse(body: AsyncIterable<Uint8Array | string>): AsyncGenerator<SseEvent> {
  const decoder = new SseDecoder();
  for await (const chunk of body) {
    for (const event of decoder.push(chunk)) yield event;
  }
  for (const event of decoder.end()) yield event;
}

/** One SSE frame with only a data field. */
export function sseData(data: string): string {
  return `data: ${data}\n\n`;
}

/** One SSE frame with an event name and a data field. */
export function sseEvent(event: string, data: string): string {
  return `event: ${event}\ndata: ${data}\n\n`;
}
