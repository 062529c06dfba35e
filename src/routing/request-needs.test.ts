import { describe, expect, it } from 'vitest';
import type { ChatRequest } from '../core/chat.js';
import { chatRequestNeeds } from './request-needs.js';

const base: ChatRequest = { model: 'm', stream: false, messages: [{ role: 'user', content: [{ type: 'text', text: 'hello' }] }] };

describe('what a chat request needs of a model', () => {
  it('needs nothing of a plain text request, and bounds its tokens by 3 × its characters', () => {
    const needs = chatRequestNeeds(base);
    expect([...needs.capabilities]).toEqual([]);
    expect(needs.thinking).toBe(false);
    expect(needs.inputTokensAtMost).toBe(15);
  });

  it('reads tools, images, PDFs and a JSON schema as capabilities, and a thinking budget as thinking (a preference, not a refusal)', () => {
    const needs = chatRequestNeeds({
      ...base,
      tools: [{ name: 'f', parameters: { type: 'object' } }],
      responseFormat: { type: 'json_schema', schema: { type: 'object' } },
      thinkingBudget: 1024,
      messages: [
        {
          role: 'user',
          content: [
            { type: 'image', source: { kind: 'url', url: 'https://example.com/a.png' } },
            { type: 'document', source: { kind: 'base64', mediaType: 'application/pdf', data: 'JVBERi0=' } },
          ],
        },
      ],
    });
    expect([...needs.capabilities].sort()).toEqual(['json_schema', 'pdf', 'tools', 'vision']);
    expect(needs.thinking).toBe(true);
  });

  it('needs tools for tool turns in the history even without definitions, and no PDF support for a text document', () => {
    const needs = chatRequestNeeds({
      ...base,
      messages: [
        { role: 'assistant', content: [{ type: 'tool_call', id: 'c1', name: 'f', arguments: '{}' }] },
        { role: 'tool', content: [{ type: 'tool_result', toolCallId: 'c1', content: 'done' }] },
        { role: 'user', content: [{ type: 'document', source: { kind: 'text', text: 'notes', mediaType: 'text/plain' } }] },
      ],
    });
    expect([...needs.capabilities]).toEqual(['tools']);
  });
});
