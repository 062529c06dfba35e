import { countTokens } from 'gpt-tokenizer';
import { beforeAll, describe, expect, it } from 'vitest';
import { estimatePromptTokens } from './estimate-prompt-tokens.js';
import { loadTokenizer } from '../../core/tokenizer.js';

beforeAll(() => loadTokenizer());

describe('estimatePromptTokens', () => {
  it('counts text with the o200k tokenizer and 258 per image', () => {
    const total = estimatePromptTokens({
      model: 'm',
      stream: false,
      system: [{ type: 'text', text: 'Be brief.' }],
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Describe this image please.' },
            { type: 'image', source: { kind: 'base64', mediaType: 'image/png', data: 'AAAA' } },
          ],
        },
      ],
    });
    // The tokenizer is the reference for text; the estimate adds the fixed image cost.
    expect(total).toBe(countTokens('Be brief.') + countTokens('Describe this image please.') + 258);
  });

  it('does not throw on special-token text sent by a client', () => {
    const total = estimatePromptTokens({ model: 'm', stream: false, messages: [{ role: 'user', content: [{ type: 'text', text: '<|endoftext|>' }] }] });
    expect(total).toBeGreaterThan(0);
  });
});

describe('estimatePromptTokens on hostile input', () => {
  it('finding 2: counts 1 MB of one letter, bounded and close to the real count', () => {
    // "rrrr" is one o200k token.
    const total = estimatePromptTokens({ model: 'm', stream: false, messages: [{ role: 'user', content: [{ type: 'text', text: 'r'.repeat(1_000_000) }] }] });
    expect(total).toBe(250_000);
  });
});
