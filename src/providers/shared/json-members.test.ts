import { describe, expect, it } from 'vitest';
import { findMember, findMembers, forEachStringValue, removeMember, replaceValue, valueIs } from './json-members.js';

function rewrite(text: string, key: string, depth: number, value: string): string {
  const span = findMember(text, key, depth);
  return span ? replaceValue(text, span, JSON.stringify(value)) : text;
}

describe('findMember / replaceValue', () => {
  it('rewrites the top-level member, not one inside a string or a nested object', () => {
    const text = '{"id":"x","note":"\\"model\\":\\"up\\"","choices":[{"model":"nested"}],"model":"up"}';
    expect(rewrite(text, 'model', 1, 'public')).toBe('{"id":"x","note":"\\"model\\":\\"up\\"","choices":[{"model":"nested"}],"model":"public"}');
  });

  it('is not fooled by a string that ends in an escaped backslash', () => {
    const text = '{"a":"ends with \\\\","model":"up"}';
    expect(JSON.parse(rewrite(text, 'model', 1, 'pub'))).toEqual({ a: 'ends with \\', model: 'pub' });
  });

  it('is not fooled by a key-like text inside a string containing braces', () => {
    const text = '{"content":"{\\"model\\": \\"x\\"} and {","model":"up"}';
    expect(JSON.parse(rewrite(text, 'model', 1, 'pub'))).toEqual({ content: '{"model": "x"} and {', model: 'pub' });
  });

  it('finds a member at depth 2 (Anthropic message_start) and accepts whitespace (pretty-printed JSON)', () => {
    const start = '{"type":"message_start","message":{"id":"m","model":"claude-up","content":[]}}';
    expect(JSON.parse(rewrite(start, 'model', 2, 'claude-pub')).message.model).toBe('claude-pub');
    const pretty = JSON.stringify({ candidates: [{ content: { parts: [{ text: '"modelVersion": "no"' }] } }], modelVersion: 'up', responseId: 'r' }, null, 2);
    expect(rewrite(pretty, 'modelVersion', 1, 'pub')).toBe(pretty.replace('"modelVersion": "up"', '"modelVersion": "pub"'));
  });

  it('escapes the new value and leaves the text alone when the key is absent', () => {
    expect(rewrite('{"model":"a"}', 'model', 1, 'x"y')).toBe('{"model":"x\\"y"}');
    expect(rewrite('{"error":{"model":"a"}}', 'model', 1, 'x')).toBe('{"error":{"model":"a"}}');
  });

  it('finds several members in one pass and tells whether a value is already the one wanted', () => {
    const text = '{"model":"m","choices":[],"usage":null}';
    const spans = findMembers(text, ['model', 'usage'], 1);
    expect(valueIs(text, spans.get('model')!, '"m"')).toBe(true);
    expect(valueIs(text, spans.get('usage')!, 'null')).toBe(true);
  });

  it('stops at truncated text', () => {
    expect(findMember('{"a":"unterminated', 'model', 1)).toBeUndefined();
    expect(findMember('{"model":"unterminated', 'model', 1)).toBeUndefined();
  });
});

describe('removeMember', () => {
  const remove = (text: string) => removeMember(text, findMember(text, 'usage', 1)!);

  it('takes the comma before the member with it', () => {
    expect(remove('{"id":"a","choices":[],"usage":null}')).toBe('{"id":"a","choices":[]}');
    expect(remove('{"id":"a","usage":null,"obfuscation":"x"}')).toBe('{"id":"a","obfuscation":"x"}');
  });

  it('takes the comma after it when the member comes first, and nothing when it is alone', () => {
    expect(remove('{"usage":null,"id":"a"}')).toBe('{"id":"a"}');
    expect(remove('{"usage":null}')).toBe('{}');
  });
});

describe('forEachStringValue', () => {
  const values = (text: string, key: string) => {
    const out: string[] = [];
    forEachStringValue(text, key, (value) => out.push(value));
    return out;
  };

  it('reads every string value of the key, decoded, and skips other values', () => {
    const text = '{"choices":[{"delta":{"content":"a \\"b\\"\\n"}},{"delta":{"content":null}},{"delta":{"content":"c"}}]}';
    expect(values(text, 'content')).toEqual(['a "b"\n', 'c']);
  });

  it('never takes text inside a string for a key', () => {
    const text = '{"delta":{"text":"say \\"text\\":\\"no\\" please"}}';
    expect(values(text, 'text')).toEqual(['say "text":"no" please']);
  });
});
