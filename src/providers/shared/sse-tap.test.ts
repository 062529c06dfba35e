import { PassThrough, Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { bodyText } from '../../../test/helpers/body-text.js';
import type { SseEvent } from '../../core/sse.js';
import { PRODUCED_TEXT_LIMIT } from '../../core/text-collector.js';
import type { TapFindings } from './sse-findings.js';
import { tapSse } from './sse-tap.js';

const usageOf = (document: unknown) => {
  const usage = (document as { usage?: { in: number; out: number } }).usage;
  return usage ? { inputTokens: usage.in, outputTokens: usage.out } : undefined;
};

function chunked(body: string, size: number): Readable {
  const parts: Buffer[] = [];
  const bytes = Buffer.from(body);
  for (let i = 0; i < bytes.length; i += size) parts.push(bytes.subarray(i, i + size));
  return Readable.from(parts);
}

describe('tapSse', () => {
  const stream = 'data: {"n":1,"t":"a"}\n\n: keep-alive\n\ndata: {"n":2,"t":"b","usage":{"in":5,"out":9}}\n\ndata: [DONE]\n\n';
  const read = (event: SseEvent, found: TapFindings): string | null => {
    if (event.data === '[DONE]') return event.data;
    const chunk = JSON.parse(event.data) as { t: string; usage?: { in: number; out: number } };
    found.text(chunk.t);
    const usage = usageOf(chunk);
    if (usage) found.usage(usage);
    return event.data;
  };

  it('relays the chunks unchanged without rewrites, and reports usage, text and a normal end', async () => {
    const tapped = tapSse(chunked(stream, 5), read, { rewrites: false });
    expect(await bodyText(tapped.body)).toBe(stream);
    expect(await tapped.result).toEqual({ usage: { inputTokens: 5, outputTokens: 9 }, completed: true, producedText: 'ab' });
  });

  it('holds the end (and any bytes still held back) until beforeEnd, given what was read, has settled', async () => {
    for (const rewrites of [false, true]) {
      let release!: () => void;
      const seen: unknown[] = [];
      const tapped = tapSse(chunked(stream, 7), read, {
        rewrites,
        beforeEnd: (result) => {
          seen.push(result);
          return new Promise<void>((resolve) => (release = resolve));
        },
      });
      const received: string[] = [];
      let ended = false;
      tapped.body.on('data', (chunk: Buffer | string) => received.push(chunk.toString()));
      tapped.body.on('end', () => (ended = true));
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(seen).toEqual([{ usage: { inputTokens: 5, outputTokens: 9 }, completed: true, producedText: 'ab' }]);
      expect(ended).toBe(false);
      release();
      await new Promise((resolve) => tapped.body.once('end', resolve));
      expect(received.join('')).toBe(stream);
    }
  });

  it('re-emits kept events byte for byte (comments, CRLF, no space after the colon) when rewriting', async () => {
    const crlf = 'event: x\r\ndata:{"n":1,"t":"a"}\r\n\r\n: note\r\ndata: {"n":2,"t":"b"}\r\nid: 4\r\n\r\n: tail';
    for (const size of [1, 3, 7, 1000]) {
      const tapped = tapSse(chunked(crlf, size), read, { rewrites: true });
      expect(await bodyText(tapped.body)).toBe(crlf);
    }
  });

  it('replaces only the data of rewritten events and drops the events the reader refuses (with the comments before them)', async () => {
    const rewrite = (event: SseEvent, found: TapFindings): string | null => {
      read(event, found);
      if (event.data.includes('usage')) return null;
      return event.data.replace('"n":1', '"n":"one"');
    };
    const tapped = tapSse(chunked(stream, 4), rewrite, { rewrites: true });
    expect(await bodyText(tapped.body)).toBe('data: {"n":"one","t":"a"}\n\ndata: [DONE]\n\n');
    expect((await tapped.result).usage).toEqual({ inputTokens: 5, outputTokens: 9 });
  });

  it('after the last rewrite, relays the rest as it came, whatever the chunking', async () => {
    const body = 'event: message_start\ndata: {"model":"up"}\n\n: ping\nevent: delta\ndata: {"t":"a"}\n\nevent: delta\ndata: {"t":"b"}\n\n: tail';
    const rewrite = (event: SseEvent): string => event.data.replace('"up"', '"public"');
    for (const size of [1, 5, 13, 36, 1000]) {
      const tapped = tapSse(chunked(body, size), rewrite, { rewrites: true, lastRewrite: (event) => event.event === 'message_start' });
      expect(await bodyText(tapped.body)).toBe(body.replace('"up"', '"public"'));
      expect((await tapped.result).completed).toBe(true);
    }
  });

  it('reports an incomplete relay when the client goes away, with the text seen so far', async () => {
    const source = new PassThrough();
    const tapped = tapSse(source, read, { rewrites: true });
    tapped.body.resume();
    source.write('data: {"n":1,"t":"partial answer"}\n\n');
    await new Promise((resolve) => setImmediate(resolve));
    tapped.body.destroy();
    expect(await tapped.result).toEqual({ completed: false, producedText: 'partial answer' });
  });

  it('ends with the cut event when the source fails and cutEvent gives one (an unfinished event held back dropped), and fails otherwise', async () => {
    for (const rewrites of [false, true]) {
      const source = new PassThrough();
      let cutBy: string | undefined = 'data: {"error":"cut"}\n\n';
      const tapped = tapSse(source, read, { rewrites, cutEvent: () => cutBy, beforeEnd: async () => undefined });
      const relayed = bodyText(tapped.body);
      source.write('data: {"n":1,"t":"partial answer"}\n\n');
      if (rewrites) source.write('data: {"n":2,"t":"unfin');
      await new Promise((resolve) => setImmediate(resolve));
      source.destroy(new Error('aborted'));
      expect(await relayed).toBe('data: {"n":1,"t":"partial answer"}\n\ndata: {"error":"cut"}\n\n');
      expect(await tapped.result).toEqual({ completed: false, producedText: 'partial answer' });

      const failing = new PassThrough();
      cutBy = undefined;
      const failed = tapSse(failing, read, { rewrites, cutEvent: () => cutBy });
      failing.destroy(new Error('socket hang up'));
      await expect(bodyText(failed.body)).rejects.toThrow('socket hang up');
    }
  });

  it('caps the produced text', async () => {
    const big = 'x'.repeat(PRODUCED_TEXT_LIMIT / 2 + 10);
    const body = `data: {"t":"${big}"}\n\ndata: {"t":"${big}"}\n\ndata: {"t":"${big}"}\n\n`;
    const tapped = tapSse(chunked(body, 65536), read, { rewrites: false });
    await bodyText(tapped.body);
    expect((await tapped.result).producedText.length).toBe(PRODUCED_TEXT_LIMIT);
  });
});
