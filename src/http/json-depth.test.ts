import { describe, expect, it } from 'vitest';
import { jsonNestsDeeperThan } from './json-depth.js';

const nested = (depth: number, open = '[', close = ']') => `${open.repeat(depth)}${close.repeat(depth)}`;

describe('jsonNestsDeeperThan', () => {
  it('counts arrays and objects together', () => {
    const text = JSON.stringify({ a: [{ b: [1] }] });
    expect(jsonNestsDeeperThan(text, 4)).toBe(false);
    expect(jsonNestsDeeperThan(text, 3)).toBe(true);
  });

  it('finds the limit exactly', () => {
    expect(jsonNestsDeeperThan(nested(256), 256)).toBe(false);
    expect(jsonNestsDeeperThan(nested(257), 256)).toBe(true);
    expect(jsonNestsDeeperThan(nested(100_000), 256)).toBe(true);
  });

  it('ignores brackets inside strings, escaped quotes included', () => {
    const text = JSON.stringify({ s: '[[[[[{{{{{ \\" [[[[ "quoted [[[ " \\\\', t: ['x'] });
    expect(JSON.parse(text).t).toEqual(['x']);
    expect(jsonNestsDeeperThan(text, 2)).toBe(false);
    expect(jsonNestsDeeperThan(text, 1)).toBe(true);
  });

  it('sees structure right after a string ending in escaped backslashes', () => {
    const text = `{"a":"x\\\\\\\\","b":${nested(5)}}`;
    expect(JSON.parse(text).a).toBe('x\\\\');
    expect(jsonNestsDeeperThan(text, 5)).toBe(true);
    expect(jsonNestsDeeperThan(text, 6)).toBe(false);
  });

  it('leaves scalars and unterminated strings alone', () => {
    expect(jsonNestsDeeperThan('"abc', 1)).toBe(false);
    expect(jsonNestsDeeperThan('42', 0)).toBe(false);
  });
});
