import { describe, expect, it } from 'vitest';
import { fromOpenAIFinishReason, toOpenAIFinishReason } from './openai-finish-reason.js';

describe('OpenAI finish reasons', () => {
  it.each([
    ['stop', 'stop'],
    ['length', 'length'],
    ['tool_calls', 'tool_calls'],
    ['function_call', 'tool_calls'],
    ['content_filter', 'content_filter'],
    ['eos', 'other'],
    [null, 'other'],
  ] as const)('reads upstream %s as %s', (raw, canonical) => {
    expect(fromOpenAIFinishReason(raw)).toBe(canonical);
  });

  it.each([
    ['stop', 'stop'],
    ['stop_sequence', 'stop'],
    ['length', 'length'],
    ['tool_calls', 'tool_calls'],
    ['content_filter', 'content_filter'],
    ['refusal', 'content_filter'],
    ['pause', 'stop'],
    ['other', 'stop'],
  ] as const)('renders canonical %s as %s', (canonical, wire) => {
    expect(toOpenAIFinishReason(canonical)).toBe(wire);
  });
});
