import { describe, expect, it } from 'vitest';
import { describeValue, MAX_ECHO_CHARS, quoteValue, truncateText } from './describe-value.js';

function nested(depth: number): unknown {
  let value: unknown = 'leaf';
  for (let i = 0; i < depth; i++) value = i % 2 === 0 ? [value] : { a: value };
  return value;
}

describe('describeValue', () => {
  it('quotes short strings as JSON and shows literals as they are', () => {
    expect(describeValue('assistant"')).toBe('"assistant\\""');
    expect(describeValue(12)).toBe('12');
    expect(describeValue(null)).toBe('null');
    expect(describeValue(true)).toBe('true');
    expect(describeValue(undefined)).toBe('undefined');
  });

  it('cuts long strings and says how long they were', () => {
    const text = describeValue('x'.repeat(1_000_000));
    expect(text).toBe(`"${'x'.repeat(MAX_ECHO_CHARS)}"… (1000000 characters)`);
  });

  it('previews objects and arrays two levels deep', () => {
    expect(describeValue({ role: 'user', parts: [{ text: 'hi' }] })).toBe('{"role":"user","parts":[{…1 keys}]}');
    expect(describeValue([1, 2, 3, 4, 5, 6])).toBe('[1,2,3,4,…2 more]');
    expect(describeValue([])).toBe('[]');
  });

  it('describes a value nested 100,000 deep without walking it', () => {
    const text = describeValue(nested(100_000));
    expect(text).toBe('{"a":[{…1 keys}]}');
  });

  it('stays bounded for wide values with long keys', () => {
    const wide = Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`${i}${'k'.repeat(5000)}`, 'v'.repeat(5000)]));
    expect(describeValue(wide).length).toBeLessThanOrEqual(MAX_ECHO_CHARS + 1);
  });
});

describe('truncateText and quoteValue', () => {
  it('leave short text alone', () => {
    expect(truncateText('abc')).toBe('abc');
    expect(quoteValue('abc')).toBe('"abc"');
  });

  it('cut at the limit', () => {
    expect(truncateText('abcdef', 3)).toBe('abc… (6 characters)');
    expect(quoteValue('abcdef', 3)).toBe('"abc"… (6 characters)');
  });
});
