import { describe, expect, it } from 'vitest';
import { MAX_LINE_CHARS, parsePlaygroundEvent, SseParser } from './sse.js';

function collect(chunks: string[]): string[] {
  const out: string[] = [];
  const parser = new SseParser((data) => out.push(data));
  for (const chunk of chunks) parser.push(chunk);
  parser.end();
  return out;
}

describe('SseParser', () => {
  it('hands over one payload per event, across chunk boundaries and CRLF line ends', () => {
    expect(collect(['data: {"a":1}\n\nda', 'ta: {"b":2}\r', '\n\r\n', 'data: x\n\n'])).toEqual(['{"a":1}', '{"b":2}', 'x']);
  });

  it('joins the data lines of one event, ignores comments and other fields, keeps a colon-less data field', () => {
    expect(collect([': keep-alive\n', 'event: message\nid: 3\ndata: one\ndata:two\n\n', 'data\n\n'])).toEqual(['one\ntwo', '']);
  });

  it('counts an event the stream ended without a blank line', () => {
    expect(collect(['data: last'])).toEqual(['last']);
  });

  it('refuses a line longer than the bound', () => {
    const parser = new SseParser(() => {});
    expect(() => parser.push('x'.repeat(MAX_LINE_CHARS + 1))).toThrow(/longer than/);
  });
});

describe('parsePlaygroundEvent', () => {
  it('reads text, done (usage and route) and error events', () => {
    expect(parsePlaygroundEvent('{"type":"text","text":"Hi"}')).toEqual({ type: 'text', text: 'Hi' });
    expect(
      parsePlaygroundEvent('{"type":"done","usage":{"inputTokens":3,"outputTokens":5},"route":{"channel":"c1","provider":"openai","simulated":true}}'),
    ).toEqual({ type: 'done', usage: { inputTokens: 3, outputTokens: 5 }, route: { channel: 'c1', provider: 'openai', simulated: true } });
    expect(parsePlaygroundEvent('{"type":"done"}')).toEqual({ type: 'done', usage: null, route: null });
    expect(parsePlaygroundEvent('{"type":"error","message":"No channel"}')).toEqual({ type: 'error', message: 'No channel' });
    expect(parsePlaygroundEvent('{"type":"error"}')).toEqual({ type: 'error', message: 'The model call failed.' });
  });

  it('skips what it does not know', () => {
    for (const data of ['[DONE]', 'not json', '[]', 'null', '{"type":"text"}', '{"type":"other"}']) expect(parsePlaygroundEvent(data), data).toBeUndefined();
  });
});
