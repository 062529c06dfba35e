import { describe, expect, it } from 'vitest';
import { JsonEndScanner } from './json-end-scanner.js';

function scan(...pieces: string[]): boolean[] {
  const scanner = new JsonEndScanner();
  return pieces.map((piece) => {
    scanner.feed(piece);
    return scanner.complete;
  });
}

describe('JsonEndScanner', () => {
  it('completes when the outermost object closes, across pieces', () => {
    expect(scan('{"a":', '{"b":[1,', '2]}', '}')).toEqual([false, false, false, true]);
  });

  it('ignores braces inside strings, including after escaped quotes split across pieces', () => {
    expect(scan('{"s":"}\\', '"}', '"}')).toEqual([false, false, true]);
  });

  it('is not complete for empty text or a bare scalar', () => {
    expect(scan('', '  ', '42')).toEqual([false, false, false]);
  });
});
