/**
 * Relays upstream bytes unchanged while reading token usage from them. For SSE bodies the
 * tap decodes events as they pass and hands each to `onEvent`; for JSON bodies it keeps the
 * chunks (bounded) and parses them once the body has ended, off the client's critical path.
 */
import { Transform } from 'node:stream';
import type { Readable } from 'node:stream';
import { SseDecoder, type SseEvent } from '../../core/sse.js';
import type { Usage } from '../../core/usage.js';

const JSON_TAP_LIMIT = 4 * 1024 * 1024;

export interface TappedBody {
  body: Readable;
  usage: Promise<Usage | undefined>;
}

/**
 * `onEvent` sees every SSE event and returns usage when the event carried some (later
 * reports replace earlier ones); `filter`, when given, may drop an event's frame from the
 * relayed bytes by returning false (then frames are re-emitted event by event).
 */
export function tapSse(
  source: Readable,
  onEvent: (event: SseEvent) => Partial<Usage> | undefined,
  filter?: (event: SseEvent) => boolean,
): TappedBody {
  const decoder = new SseDecoder();
  const usage: Usage = { inputTokens: 0, outputTokens: 0 };
  let seen = false;
  let settle!: (value: Usage | undefined) => void;
  const done = new Promise<Usage | undefined>((resolve) => (settle = resolve));
  const absorb = (events: SseEvent[]): void => {
    for (const event of events) {
      const found = onEvent(event);
      if (found) {
        seen = true;
        Object.assign(usage, Object.fromEntries(Object.entries(found).filter(([, v]) => v !== undefined)));
      }
    }
  };
  const tap = new Transform({
    transform(chunk: Buffer, _enc, callback) {
      const events = decoder.push(chunk);
      absorb(events);
      if (!filter) return callback(null, chunk);
      let out = '';
      for (const event of events) if (filter(event)) out += frame(event);
      callback(null, out.length > 0 ? out : undefined);
    },
    flush(callback) {
      const events = decoder.end();
      absorb(events);
      settle(seen ? usage : undefined);
      if (!filter) return callback();
      let out = '';
      for (const event of events) if (filter(event)) out += frame(event);
      callback(null, out.length > 0 ? out : undefined);
    },
  });
  tap.on('close', () => settle(seen ? usage : undefined));
  source.on('error', (error) => tap.destroy(error));
  source.pipe(tap);
  return { body: tap, usage: done };
}

function frame(event: SseEvent): string {
  let out = event.event !== undefined ? `event: ${event.event}\n` : '';
  for (const line of event.data.split('\n')) out += `data: ${line}\n`;
  return `${out}\n`;
}

/**
 * Relays a JSON body unchanged and reads usage once it has passed. With `usageKey`, only the
 * last `"<usageKey>": {…}` object of the text is parsed (usage sits at the end of every
 * dialect's answer), not the whole document; the whole document is the fallback.
 */
export function tapJson(source: Readable, extract: (document: unknown) => Partial<Usage> | undefined, usageKey?: string): TappedBody {
  const chunks: Buffer[] = [];
  let size = 0;
  let settle!: (value: Usage | undefined) => void;
  const done = new Promise<Usage | undefined>((resolve) => (settle = resolve));
  const tap = new Transform({
    transform(chunk: Buffer, _enc, callback) {
      if (size <= JSON_TAP_LIMIT) chunks.push(chunk);
      size += chunk.length;
      callback(null, chunk);
    },
    flush(callback) {
      callback();
      if (size > JSON_TAP_LIMIT) return settle(undefined);
      try {
        const text = Buffer.concat(chunks).toString('utf8');
        const usage = usageKey === undefined ? undefined : lastObjectAt(text, usageKey);
        const found = extract(usage === undefined ? JSON.parse(text) : { [usageKey!]: usage });
        settle(found ? { inputTokens: 0, outputTokens: 0, ...found } : undefined);
      } catch {
        settle(undefined);
      }
    },
  });
  tap.on('close', () => settle(undefined));
  source.on('error', (error) => tap.destroy(error));
  source.pipe(tap);
  return { body: tap, usage: done };
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
