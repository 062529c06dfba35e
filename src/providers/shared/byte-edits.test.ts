import { describe, expect, it } from 'vitest';
import { ByteEdits, bytesAt } from './byte-edits.js';

describe('ByteEdits', () => {
  it('returns the chunk itself, or the part asked for, when nothing was edited', () => {
    const bytes = Buffer.from('data: x\n\n');
    const edits = new ByteEdits();
    expect(edits.apply(bytes, bytes.length)).toBe(bytes);
    expect(edits.apply(bytes, 4).toString()).toBe('data');
  });

  it('applies replacements, insertions and cuts in one buffer, up to the end asked for', () => {
    const bytes = Buffer.from('{"model":"up","usage":null}|rest');
    const edits = new ByteEdits();
    edits.replace(9, 13, Buffer.from('"public/m"'));
    edits.replace(13, 26);
    expect(edits.apply(bytes, 27).toString()).toBe('{"model":"public/m"}');
    expect(edits.count).toBe(0);
  });

  it('forgets the edits of an event that turned out not to fit', () => {
    const bytes = Buffer.from('abcdef');
    const edits = new ByteEdits();
    edits.replace(0, 1, Buffer.from('A'));
    const mark = edits.count;
    edits.replace(2, 4);
    edits.truncate(mark);
    edits.replace(5, 6, Buffer.from('FF'));
    expect(edits.apply(bytes, 6).toString()).toBe('AbcdeFF');
  });
});

/** The edits applied the plain way: the kept slices and the inserts, concatenated. */
function reference(bytes: Buffer, end: number, edits: Array<[number, number, Buffer | undefined]>): Buffer {
  const parts: Buffer[] = [];
  let read = 0;
  for (const [from, to, insert] of edits) {
    parts.push(bytes.subarray(read, from));
    if (insert) parts.push(insert);
    read = to;
  }
  parts.push(bytes.subarray(read, end));
  return Buffer.concat(parts);
}

/** A small deterministic generator, so a failing case can be replayed from its seed. */
function generator(seed: number): (below: number) => number {
  let state = seed >>> 0 || 1;
  return (below) => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) % below;
  };
}

describe('ByteEdits in place', () => {
  it('edits the chunk itself when a longer insert is followed by a larger cut (a longer public model name, then `,"usage":null` cut)', () => {
    const event = '{"id":"c1","model":"up","choices":[],"usage":null}\n\n';
    const bytes = Buffer.alloc(event.length * 3, event.repeat(3));
    const edits = new ByteEdits();
    for (let k = 0; k < 3; k++) {
      const base = k * event.length;
      edits.replace(base + 19, base + 23, Buffer.from('"public-model"'));
      edits.replace(base + event.indexOf(',"usage":null'), base + event.indexOf(',"usage":null') + 13);
    }
    const out = edits.apply(bytes, bytes.length);
    expect(out.toString()).toBe('{"id":"c1","model":"public-model","choices":[]}\n\n'.repeat(3));
    expect(out.buffer).toBe(bytes.buffer);
  });

  it('gives what the plain concatenation gives, for random edits of random chunks (in place whenever the chunk does not grow)', () => {
    for (let seed = 1; seed <= 3000; seed++) {
      const random = generator(seed);
      const length = 1 + random(80);
      const source = Buffer.from(Array.from({ length }, () => 97 + random(26)));
      const end = length - random(Math.min(length, 5));
      const list: Array<[number, number, Buffer | undefined]> = [];
      let at = 0;
      while (at < end && list.length < 8) {
        const from = at + random(Math.min(10, end - at + 1));
        if (from > end) break;
        const to = Math.min(end, from + random(12));
        const size = random(4) === 0 ? -1 : random(16);
        list.push([from, to, size < 0 ? undefined : Buffer.from('ABCDEFGHIJKLMNOPQRSTUVWXYZ'.slice(0, size))]);
        at = to + (random(3) === 0 ? 0 : 1);
      }
      const expected = reference(source, end, list);
      // Buffer.alloc is never from the shared pool, so sharing its memory means in place.
      const bytes = Buffer.alloc(length);
      source.copy(bytes);
      const edits = new ByteEdits();
      for (const [from, to, insert] of list) edits.replace(from, to, insert);
      const out = edits.apply(bytes, end);
      expect(out.toString(), `seed ${seed}`).toBe(expected.toString());
      expect(out.buffer === bytes.buffer, `seed ${seed}: in place`).toBe(expected.length <= end);
    }
  });
});

describe('bytesAt', () => {
  it('compares in range only', () => {
    const bytes = Buffer.from('[DONE]');
    expect(bytesAt(bytes, 0, Buffer.from('[DONE]'))).toBe(true);
    expect(bytesAt(bytes, 1, Buffer.from('DONE]'))).toBe(true);
    expect(bytesAt(bytes, 1, Buffer.from('DONE]x'))).toBe(false);
    expect(bytesAt(bytes, -1, Buffer.from('['))).toBe(false);
  });
});
