/**
 * Relays an upstream pass-through JSON answer while reading its usage: the answer is read whole
 * (bounded) before it is relayed, so it can be rewritten and sized.
 */
import { isUtf8 } from 'node:buffer';
import { Readable } from 'node:stream';
import { GatewayError } from '../../core/errors.js';
import type { TapResult } from '../../core/passthrough.js';
import type { Usage } from '../../core/usage.js';
import { lastObjectAt, lastObjectInBytes } from './json-scanner.js';

/** JSON answers up to this size are read whole (rewritten, usage read); larger ones are relayed as they are. */
const JSON_TAP_LIMIT = 4 * 1024 * 1024;

interface JsonTapOptions {
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

interface TappedJson {
  body: Readable | Buffer;
  result: Promise<TapResult>;
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
