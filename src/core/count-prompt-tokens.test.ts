import { countTokens } from 'gpt-tokenizer';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ChatRequest, DocumentPart } from './chat.js';
import { countPromptTokens, DOCUMENT_INPUT_TOKENS, IMAGE_INPUT_TOKENS } from './count-prompt-tokens.js';
import { loadTokenizer } from './tokenizer.js';

beforeAll(() => loadTokenizer());

describe('countPromptTokens', () => {
  it('counts system and message text with the o200k tokenizer', () => {
    const request: ChatRequest = {
      model: 'textmodel-b-4o',
      system: [{ type: 'text', text: 'You are a terse assistant.' }],
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'Hello there, how are you today?' }] },
        { role: 'assistant', content: [{ type: 'text', text: 'Fine.' }] },
        { role: 'user', content: [{ type: 'text', text: 'Tell me a joke about routers.' }] },
      ],
      stream: false,
    };
    const expected = countTokens('You are a terse assistant.\nHello there, how are you today?\nFine.\nTell me a joke about routers.');
    expect(countPromptTokens(request)).toBe(expected);
  });

  it('adds tool calls, tool results and tool definitions as JSON, plus flat media costs', () => {
    const tools = [{ name: 'get_weather', description: 'Weather for a city', parameters: { type: 'object', properties: { city: { type: 'string' } } } }];
    const request: ChatRequest = {
      model: 'textmodel-a-sonnet-4-20250514',
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Weather in Oslo?' },
            { type: 'image', source: { kind: 'url', url: 'https://example.com/a.png' } },
            { type: 'document', source: { kind: 'base64', mediaType: 'application/pdf', data: 'JVBERi0=' } },
            { type: 'document', source: { kind: 'text', text: 'Plain notes.' } },
          ],
        },
        { role: 'assistant', content: [{ type: 'tool_call', id: 'call_1', name: 'get_weather', arguments: '{"city":"Oslo"}' }] },
        {
          role: 'tool',
          content: [
            {
              type: 'tool_result',
              toolCallId: 'call_1',
              content: [
                { type: 'text', text: '12 C, rain' },
                { type: 'image', source: { kind: 'url', url: 'https://example.com/b.png' } },
              ],
            },
          ],
        },
      ],
      tools,
      stream: false,
    };
    const text = ['Weather in Oslo?', 'Plain notes.', 'get_weather', '{"city":"Oslo"}', '12 C, rain', JSON.stringify(tools)].join('\n');
    expect(countPromptTokens(request)).toBe(countTokens(text) + 2 * IMAGE_INPUT_TOKENS + DOCUMENT_INPUT_TOKENS);
    expect(IMAGE_INPUT_TOKENS).toBe(85);
    expect(DOCUMENT_INPUT_TOKENS).toBe(258);
  });

  it('counts special-token strings in user text as plain text instead of throwing', () => {
    const request: ChatRequest = { model: 'm', messages: [{ role: 'user', content: [{ type: 'text', text: 'say <|endoftext|> now' }] }], stream: false };
    expect(countPromptTokens(request)).toBe(countTokens('say <|endoftext|> now', { disallowedSpecial: new Set() }));
  });

  it('counts the text read of a long PDF and the flat page cost of the pages left unread', () => {
    const pdf: DocumentPart = { type: 'document', source: { kind: 'base64', mediaType: 'application/pdf', data: 'JVBERi0=' } };
    const request: ChatRequest = { model: 'm', messages: [{ role: 'user', content: [pdf] }], stream: false };
    const readings = new Map([[pdf, { kind: 'pdf' as const, pages: 105, text: 'first pages', unreadPages: 5 }]]);
    expect(countPromptTokens(request, readings)).toBe(countTokens('first pages') + 5 * DOCUMENT_INPUT_TOKENS);
  });

  it('finding 2: counts 1 MB of one letter close to the real count, bounded', () => {
    const request: ChatRequest = { model: 'm', messages: [{ role: 'user', content: [{ type: 'text', text: 'r'.repeat(1_000_000) }] }], stream: false };
    // "rrrr" is one o200k token.
    expect(countPromptTokens(request)).toBe(250_000);
  });
});
