import { beforeAll, describe, expect, it } from 'vitest';
import { estimateInputTokens } from './estimate-input-tokens.js';
import { loadTokenizer } from '../../core/tokenizer.js';

beforeAll(() => loadTokenizer());

describe('estimateInputTokens', () => {
  it('counts text with the BPE plus per-message framing', () => {
    // "Hello world" is two o200k tokens, "Be brief." three; each message adds 3.
    expect(estimateInputTokens({ model: 'm', stream: false, messages: [{ role: 'user', content: [{ type: 'text', text: 'Hello world' }] }] })).toBe(5);
    expect(
      estimateInputTokens({
        model: 'm',
        stream: false,
        system: [{ type: 'text', text: 'Be brief.' }],
        messages: [{ role: 'user', content: [{ type: 'text', text: 'Hello world' }] }],
      }),
    ).toBe(8);
  });

  it('adds a fixed amount per image and counts tool definitions', () => {
    const withImage = estimateInputTokens({
      model: 'm',
      stream: false,
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Hello world' },
            { type: 'image', source: { kind: 'url', url: 'https://x/y.png' } },
          ],
        },
      ],
    });
    expect(withImage).toBe(5 + 1600);
    const withTool = estimateInputTokens({
      model: 'm',
      stream: false,
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Hello world' }] }],
      tools: [{ name: 'get_weather', parameters: { type: 'object' } }],
    });
    expect(withTool).toBeGreaterThan(5);
  });
});

describe('estimateInputTokens on hostile input', () => {
  it('finding 2: counts 1 MB of one letter and many long messages, bounded and close', () => {
    const run = 'r'.repeat(1_000_000);
    // "rrrr" is one o200k token; one message adds 3.
    expect(estimateInputTokens({ model: 'm', stream: false, messages: [{ role: 'user', content: [{ type: 'text', text: run }] }] })).toBe(250_003);
    const messages = Array.from({ length: 200 }, () => ({ role: 'user' as const, content: [{ type: 'text' as const, text: 'r'.repeat(10_000) }] }));
    expect(estimateInputTokens({ model: 'm', stream: false, messages })).toBe(200 * (2_500 + 3));
  });
});
