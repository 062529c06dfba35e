import { PassThrough, Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { bodyText } from '../../../test/helpers/body-text.js';
import { tapJson } from './json-tap.js';

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

describe('tapJson', () => {
  it('reads the answer whole, relays it with its length and reads usage from its end', async () => {
    const body = JSON.stringify({ id: 'x', text: 'say "usage": {}', usage: { in: 12, out: 3 } });
    const tapped = await tapJson(chunked(body, 7), { extract: usageOf, usageKey: 'usage' });
    expect(tapped.length).toBe(Buffer.byteLength(body));
    expect(await bodyText(tapped.body)).toBe(body);
    expect(await tapped.result).toEqual({ usage: { inputTokens: 12, outputTokens: 3 }, completed: true, producedText: '' });
  });

  it('relays the rewritten text with the rewritten length', async () => {
    const body = '{"model":"up-é","usage":{"in":1,"out":2}}';
    const tapped = await tapJson(chunked(body, 3), { extract: usageOf, usageKey: 'usage', rewrite: (t) => t.replace('up-é', 'public-model') });
    const relayed = await bodyText(tapped.body);
    expect(relayed).toBe('{"model":"public-model","usage":{"in":1,"out":2}}');
    expect(tapped.length).toBe(Buffer.byteLength(relayed));
  });

  it('has no usage when the answer carries none', async () => {
    const tapped = await tapJson(chunked('{"id":"x"}', 3), { extract: usageOf, usageKey: 'usage' });
    expect(await bodyText(tapped.body)).toBe('{"id":"x"}');
    expect(await tapped.result).toEqual({ completed: true, producedText: '' });
  });

  it('relays an answer over the limit unchanged, as it comes, without length or usage', async () => {
    const body = JSON.stringify({ filler: 'x'.repeat(100), usage: { in: 1, out: 1 } });
    const tapped = await tapJson(chunked(body, 10), { extract: usageOf, usageKey: 'usage', rewrite: () => 'never' }, 50);
    expect(tapped.length).toBeUndefined();
    expect(await bodyText(tapped.body)).toBe(body);
    expect(await tapped.result).toEqual({ completed: true, producedText: '' });
  });

  it('throws a retryable upstream error when the body breaks off', async () => {
    const source = new PassThrough();
    source.write('{"id":');
    setImmediate(() => source.destroy(new Error('socket hang up')));
    await expect(tapJson(source, { extract: usageOf })).rejects.toMatchObject({ kind: 'upstream', retryable: true });
  });
});
