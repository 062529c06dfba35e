import { describe, expect, it } from 'vitest';
import {
  checkIdentifierText,
  checkPlainText,
  checkStorableText,
  controlCharacterAt,
  escapeControlCharacters,
  findString,
  isStorableText,
} from './client-strings.js';
import type { GatewayError } from './errors.js';

function thrown(run: () => unknown): GatewayError {
  try {
    run();
  } catch (error) {
    return error as GatewayError;
  }
  throw new Error('nothing thrown');
}

describe('client strings', () => {
  it('finds C0, DEL and C1 control characters, and leaves line breaks alone when told', () => {
    expect(controlCharacterAt('gemini-2.5-flash')).toBe(-1);
    expect(controlCharacterAt('héllo 😀 \u00a0')).toBe(-1);
    for (const c of ['\u0000', '\u0001', '\t', '\n', '\u001b', '\u007f', '\u0080', '\u0085', '\u009f']) expect(controlCharacterAt(`ab${c}`)).toBe(2);
    expect(controlCharacterAt('a\tb\r\nc', true)).toBe(-1);
    expect(controlCharacterAt('a\tb\u0000', true)).toBe(3);
  });

  it('refuses an identifier with a control character, naming the field and the code point, never echoing it', () => {
    expect(checkIdentifierText('gemini-x', 'model')).toBe('gemini-x');
    const error = thrown(() => checkIdentifierText('gemini-x\u0000y', 'model'));
    expect(error).toMatchObject({ kind: 'invalid_request', status: 400, param: 'model', code: 'invalid_characters' });
    expect(error.message).toBe('model must not contain control characters (found U+0000 at position 8)');
    expect(thrown(() => checkIdentifierText('a\u0085', 'name')).message).toContain('U+0085');
  });

  it('lets free text hold everything but U+0000, and plain text everything but controls other than line breaks', () => {
    expect(checkStorableText('line one\nline\ttwo \u001b', 'state')).toContain('line');
    expect(thrown(() => checkStorableText('ab\u0000', 'state')).message).toBe('state must not contain U+0000 (at position 2)');
    expect(isStorableText('a\u0001')).toBe(true);
    expect(isStorableText('a\u0000')).toBe(false);
    expect(checkPlainText('a\tb\nc', 'name')).toBe('a\tb\nc');
    expect(thrown(() => checkPlainText('a\u001b[31m', 'name')).param).toBe('name');
  });

  it('escapes control characters so that text holds none of them', () => {
    expect(escapeControlCharacters('plain')).toBe('plain');
    expect(escapeControlCharacters('bad\u0000news\u001b[31m\u0085')).toBe('bad\\u0000news\\u001b[31m\\u0085');
  });

  it('finds the first bad string of a JSON value, member names included, with its path', () => {
    const hasNul = (text: string) => text.includes('\u0000');
    expect(findString({ a: ['ok', { b: 'x\u0000' }] }, hasNul)).toEqual({ path: 'a[1].b', text: 'x\u0000' });
    expect(findString({ 'k\u0000': 1 }, hasNul)).toEqual({ path: 'k\\u0000 (a member name)', text: 'k\u0000' });
    expect(findString(['a', 'b'], hasNul)).toBeUndefined();
    expect(findString(Buffer.from('a\u0000'), hasNul)).toBeUndefined();
    // Deep nesting is walked without recursion.
    let deep: unknown = 'x\u0000';
    for (let i = 0; i < 50_000; i++) deep = [deep];
    expect(findString(deep, hasNul)?.text).toBe('x\u0000');
  });
});
