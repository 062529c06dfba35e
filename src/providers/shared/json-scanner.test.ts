import { describe, expect, it } from 'vitest';
import { lastObjectAt, lastObjectInBytes } from './json-scanner.js';

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

describe('lastObjectInBytes', () => {
  it('finds in the UTF-8 bytes the object lastObjectAt finds in the text', () => {
    const docs = [
      '{"content":"é \\"usage\\": {not this} ","usage" :\n {"in":7,"out":{"nested":"a}b"}}}',
      '{"usage":{"in":1}, "x": "ü", "usage": {"in":2}}',
      '{"a":1}',
      '{"usage":null}',
      '{"usage":{"in":',
    ];
    for (const doc of docs) expect(lastObjectInBytes(Buffer.from(doc, 'utf8'), 'usage')).toEqual(lastObjectAt(doc, 'usage'));
    expect(lastObjectInBytes(Buffer.from(docs[0], 'utf8'), 'usage')).toEqual({ in: 7, out: { nested: 'a}b' } });
  });
});
