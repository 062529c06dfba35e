import { describe, expect, it } from 'vitest';
import { commonEventAt, type EventBytes, INCOMPLETE, OTHER_SHAPE } from './sse-event-bytes.js';

const at = (text: string, start = 0): { end: number; view: EventBytes } => {
  const view: EventBytes = { bytes: Buffer.alloc(0), nameStart: 0, nameEnd: 0, dataStart: 0, dataEnd: 0 };
  return { end: commonEventAt(Buffer.from(text), start, view), view };
};
const slice = (view: EventBytes, from: number, to: number): string => view.bytes.toString('utf8', from, to);

describe('commonEventAt', () => {
  it('finds the data (and the name) of an event of the common shape and where it ends', () => {
    const named = at('event: delta\ndata: {"t":"a"}\n\nrest');
    expect(named.end).toBe('event: delta\ndata: {"t":"a"}\n\n'.length);
    expect(slice(named.view, named.view.nameStart, named.view.nameEnd)).toBe('delta');
    expect(slice(named.view, named.view.dataStart, named.view.dataEnd)).toBe('{"t":"a"}');

    const plain = at('xxdata:[DONE]\n\n', 2);
    expect(plain.end).toBe(15);
    expect([plain.view.nameStart, plain.view.nameEnd]).toEqual([-1, -1]);
    expect(slice(plain.view, plain.view.dataStart, plain.view.dataEnd)).toBe('[DONE]');
  });

  it('says when the event has another shape', () => {
    expect(at(': comment\n\n').end).toBe(OTHER_SHAPE);
    expect(at('data: a\ndata: b\n\n').end).toBe(OTHER_SHAPE);
    expect(at('data: a\nid: 1\n\n').end).toBe(OTHER_SHAPE);
    expect(at('data').end).toBe(OTHER_SHAPE);
  });

  it('says when the bytes end before the event does', () => {
    expect(at('event: delta').end).toBe(INCOMPLETE);
    expect(at('data: {"t":').end).toBe(INCOMPLETE);
    expect(at('data: {"t":"a"}\n').end).toBe(INCOMPLETE);
  });
});
