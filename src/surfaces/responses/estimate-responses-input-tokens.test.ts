import { countTokens } from 'gpt-tokenizer';
import { describe, expect, it } from 'vitest';
import { estimateResponsesInputTokens } from './estimate-responses-input-tokens.js';
import { parseResponsesRequest } from './parse-responses-request.js';

describe('estimateResponsesInputTokens', () => {
  it('counts instructions, history and input text with the o200k tokenizer, and a flat cost per image', async () => {
    const history = [{ type: 'message', id: 'msg_1', role: 'user', content: [{ type: 'input_text', text: 'Earlier question.' }] }];
    const { canonical } = parseResponsesRequest(
      {
        model: 'm',
        instructions: 'Be terse.',
        input: [
          {
            role: 'user',
            content: [
              { type: 'input_text', text: 'What is this?' },
              { type: 'input_image', image_url: 'https://example.com/a.png' },
            ],
          },
        ],
      },
      { history, openReasoning: () => undefined },
    );
    // 85 tokens: an image's flat cost, the size of a low-detail image in OpenAI's accounting.
    expect(await estimateResponsesInputTokens(canonical)).toBe(countTokens('Be terse.\nEarlier question.\nWhat is this?') + 85);
  });
});
