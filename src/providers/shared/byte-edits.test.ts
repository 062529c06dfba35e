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

describe('bytesAt', () => {
  it('compares in range only', () => {
    const bytes = Buffer.from('[DONE]');
    expect(bytesAt(bytes, 0, Buffer.from('[DONE]'))).toBe(true);
    expect(bytesAt(bytes, 1, Buffer.from('DONE]'))).toBe(true);
    expect(bytesAt(bytes, 1, Buffer.from('DONE]x'))).toBe(false);
    expect(bytesAt(bytes, -1, Buffer.from('['))).toBe(false);
  });
});
