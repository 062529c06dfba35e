import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { describe, expect, it } from 'vitest';
import { lastObjectAt, tapJson, tapSse } from './usage-tap.js';

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

describe('lastObjectAt', () => {
  it('parses the object after the last occurrence of the key, whatever strings hold', () => {
    const doc = '{"content":"the \\"usage\\": {not this} }","usage":{"in":7,"out":{"nested":"a}b"}}}';
    expect(lastObjectAt(doc, 'usage')).toEqual({ in: 7, out: { nested: 'a}b' } });
  });

  it('is undefined when the key is absent or not followed by an object', () => {
    expect(lastObjectAt('{"a":1}', 'usage')).toBeUndefined();
    expect(lastObjectAt('{"usage":null}', 'usage')).toBeUndefined();
  });
});

describe('tapJson', () => {
  it('relays the bytes unchanged and reads usage from the end of the answer', async () => {
    const body = JSON.stringify({ id: 'x', text: 'say "usage": {}', usage: { in: 12, out: 3 } });
    const tapped = tapJson(chunked(body, 7), usageOf, 'usage');
    expect(await text(tapped.body)).toBe(body);
    expect(await tapped.usage).toEqual({ inputTokens: 12, outputTokens: 3 });
  });

  it('settles undefined when the answer has no usage', async () => {
    const tapped = tapJson(chunked('{"id":"x"}', 3), usageOf, 'usage');
    expect(await text(tapped.body)).toBe('{"id":"x"}');
    expect(await tapped.usage).toBeUndefined();
  });
});

describe('tapSse', () => {
  const stream = 'data: {"n":1}\n\ndata: {"n":2,"usage":{"in":5,"out":9}}\n\ndata: [DONE]\n\n';
  const onEvent = (event: { data: string }) => {
    if (event.data === '[DONE]') return undefined;
    return usageOf(JSON.parse(event.data));
  };

  it('relays the bytes unchanged and reads usage from the events', async () => {
    const tapped = tapSse(chunked(stream, 5), onEvent);
    expect(await text(tapped.body)).toBe(stream);
    expect(await tapped.usage).toEqual({ inputTokens: 5, outputTokens: 9 });
  });

  it('drops the events the filter refuses and keeps the rest as frames', async () => {
    const tapped = tapSse(chunked(stream, 4), onEvent, (event) => !event.data.includes('usage'));
    expect(await text(tapped.body)).toBe('data: {"n":1}\n\ndata: [DONE]\n\n');
    expect(await tapped.usage).toEqual({ inputTokens: 5, outputTokens: 9 });
  });
});
