import { describe, expect, it } from 'vitest';
import { readSse, SseDecoder } from './sse.js';

describe('SseDecoder', () => {
  it('decodes events split at every possible byte', () => {
    const text = 'event: message_start\ndata: {"a":1}\n\n: comment\ndata: line1\ndata: line2\n\ndata: [DONE]\n\n';
    const bytes = new TextEncoder().encode(text);
    for (let cut = 1; cut < bytes.length; cut++) {
      const decoder = new SseDecoder();
      const events = [...decoder.push(bytes.slice(0, cut)), ...decoder.push(bytes.slice(cut)), ...decoder.end()];
      expect(events).toEqual([
        { event: 'message_start', data: '{"a":1}', id: undefined },
        { event: undefined, data: 'line1\nline2', id: undefined },
        { event: undefined, data: '[DONE]', id: undefined },
      ]);
    }
  });

  it('accepts CRLF and CR line ends, and a value without the optional space', () => {
    const decoder = new SseDecoder();
    const events = [...decoder.push('data:x\r\n\r\ndata: y\r\rdata: z\r'), ...decoder.push('\n\r\n')];
    expect(events.map((e) => e.data)).toEqual(['x', 'y', 'z']);
  });

  it('keeps multi-byte characters split across chunks intact', () => {
    const bytes = new TextEncoder().encode('data: héllo 🌍\n\n');
    const decoder = new SseDecoder();
    const events = [...decoder.push(bytes.slice(0, 9)), ...decoder.push(bytes.slice(9, 15)), ...decoder.push(bytes.slice(15))];
    expect(events[0].data).toBe('héllo 🌍');
  });

  it('drops one byte order mark at the start of the stream, wherever the chunks cut it, and keeps any later one', () => {
    const bytes = new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode('data: \ufeffa\n\ndata: b\n\n')]);
    for (let cut = 0; cut < bytes.length; cut++) {
      const decoder = new SseDecoder({ keepRaw: true });
      const events = [...decoder.push(bytes.slice(0, cut)), ...decoder.push(bytes.slice(cut)), ...decoder.end()];
      expect(events.map((e) => [e.data, e.raw])).toEqual([
        ['\ufeffa', 'data: \ufeffa\n\n'],
        ['b', 'data: b\n\n'],
      ]);
    }
  });

  it('turns bytes that are not UTF-8 into U+FFFD, as a TextDecoder would', () => {
    const bytes = new Uint8Array([...new TextEncoder().encode('data: x'), 0xff, 0xc3, ...new TextEncoder().encode('y\n\n')]);
    const events = new SseDecoder().push(bytes);
    expect(events[0].data).toBe(new TextDecoder().decode(bytes).slice('data: '.length, -2));
  });

  it('decodes mixed line ends in every chunking, a \r at a chunk end included', () => {
    const text = 'data: a\r\n\r\ndata: bb\rdata: cc\r\rdata: d\n\n: note\r\ndata: e\r\n\r\n';
    for (let size = 1; size <= text.length; size++) {
      const decoder = new SseDecoder();
      const events = [];
      for (let i = 0; i < text.length; i += size) events.push(...decoder.push(text.slice(i, i + size)));
      events.push(...decoder.end());
      expect(
        events.map((e) => e.data),
        `chunks of ${size}`,
      ).toEqual(['a', 'bb\ncc', 'd', 'e']);
    }
  });

  it('ends an event at a \r held back at a chunk end as soon as the next chunk shows it was not \r\n', () => {
    const decoder = new SseDecoder();
    expect(decoder.push('data: x\r\r')).toEqual([]);
    expect(decoder.push('d').map((e) => e.data)).toEqual(['x']);
  });

  it('decodes one long line that arrives in many chunks without a line end', () => {
    const value = 'x'.repeat(200_000);
    const decoder = new SseDecoder();
    const text = `data: ${value}\n\n`;
    const events = [];
    for (let i = 0; i < text.length; i += 100) events.push(...decoder.push(text.slice(i, i + 100)));
    expect(events.map((e) => e.data.length)).toEqual([value.length]);
  });

  it('flushes a last event that had no blank line after it', async () => {
    async function* body() {
      yield 'data: {"done":true}';
    }
    const events = [];
    for await (const event of readSse(body())) events.push(event.data);
    expect(events).toEqual(['{"done":true}']);
  });
});

describe('SseDecoder with keepRaw', () => {
  const stream = ': hello\r\nevent: a\r\ndata:{"x":1}\r\n\r\ndata: one\ndata: two\nid: 7\n\n\n: trailing\ndata: last';

  it('gives each event its text as received, whatever the chunking, and where its data line starts', () => {
    for (let size = 1; size <= stream.length; size++) {
      const decoder = new SseDecoder({ keepRaw: true });
      const events = [];
      for (let i = 0; i < stream.length; i += size) events.push(...decoder.push(stream.slice(i, i + size)));
      events.push(...decoder.end());
      expect(events.map((e) => e.raw).join('') + decoder.takeRaw()).toBe(stream);
      expect(events.map((e) => e.data)).toEqual(['{"x":1}', 'one\ntwo', 'last']);
      const [first, second, third] = events;
      expect(first.raw!.slice(first.rawDataAt, first.rawDataAt! + first.data.length)).toBe('{"x":1}');
      expect(second.rawDataAt).toBe(-1);
      expect(third.raw!.slice(third.rawDataAt)).toBe('last');
    }
  });

  it('keeps nothing when not asked', () => {
    const [event] = new SseDecoder().push('data: x\n\n');
    expect(event.raw).toBeUndefined();
  });
});
