import { describe, expect, it } from 'vitest';
import type { ChatMessage, ChatRequest } from '../../core/chat.js';
import type { Attempt, ChannelConfig } from '../types.js';
import { replaysToolUseWithoutThinking } from './anthropic-thinking.js';
import { toAnthropicMessages } from './to-anthropic-messages.js';

function testAttempt(extra: Partial<Attempt> = {}, options: Record<string, unknown> = {}): Attempt & { warnings: string[] } {
  const channel: ChannelConfig = {
    name: 'anthropic-test',
    provider: 'anthropic',
    baseUrl: 'https://api.anthropic.com',
    apiKey: 'sk-ant-test',
    headers: {},
    timeoutMs: 5_000,
    options,
  };
  const warnings: string[] = [];
  return {
    channel,
    upstreamModel: 'claude-sonnet-4-20250514',
    signal: new AbortController().signal,
    requestId: 'req_test',
    warn: (m) => warnings.push(m),
    warnings,
    ...extra,
  };
}

function request(extra: Partial<ChatRequest> = {}): ChatRequest {
  return { model: 'textmodel-a-sonnet-4-20250514', messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }], stream: false, ...extra };
}

const CALL: ChatMessage = { role: 'assistant', content: [{ type: 'tool_call', id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}' }] };
const RESULT: ChatMessage = { role: 'tool', content: [{ type: 'tool_result', toolCallId: 'call_1', content: 'sunny' }] };
const ASK: ChatMessage = { role: 'user', content: [{ type: 'text', text: 'Weather in Paris?' }] };

describe('thinking budget and the client cap', () => {
  it('keeps the client cap and fits a large budget inside it, leaving room for the answer', () => {
    const attempt = testAttempt();
    const body = toAnthropicMessages(request({ maxTokens: 2000, thinkingBudget: 16384 }), attempt, false);
    expect(body.max_tokens).toBe(2000);
    expect(body.thinking).toEqual({ type: 'enabled', budget_tokens: 1024 });
    expect(attempt.warnings).toEqual(['thinking: budget reduced from 16384 to 1024 tokens to fit max_tokens 2000']);
  });

  it('shrinks a Gemini-style budget to the cap minus the answer room', () => {
    const attempt = testAttempt();
    const body = toAnthropicMessages(request({ maxTokens: 3000, thinkingBudget: 2048 }), attempt, false);
    expect(body).toMatchObject({ max_tokens: 3000, thinking: { type: 'enabled', budget_tokens: 1976 } });
  });

  it('leaves thinking off, with a warning, when the cap has no room for the minimum budget', () => {
    const attempt = testAttempt();
    const body = toAnthropicMessages(request({ maxTokens: 1000, thinkingBudget: 2048, temperature: 0.3 }), attempt, false);
    expect(body.max_tokens).toBe(1000);
    expect(body.thinking).toBeUndefined();
    expect(body.temperature).toBe(0.3);
    expect(attempt.warnings).toEqual(["thinking: left off: max_tokens 1000 leaves no room for Anthropic's minimum thinking budget of 1024 tokens"]);
  });

  it('raises a budget under Anthropic minimum and says so', () => {
    const attempt = testAttempt();
    const body = toAnthropicMessages(request({ maxTokens: 5000, thinkingBudget: 512 }), attempt, false);
    expect(body.thinking).toEqual({ type: 'enabled', budget_tokens: 1024 });
    expect(attempt.warnings).toEqual(["thinking: budget raised from 512 to Anthropic's minimum of 1024 tokens"]);
  });

  it('treats a zero budget as thinking off', () => {
    const body = toAnthropicMessages(request({ thinkingBudget: 0, temperature: 0.5 }), testAttempt(), false);
    expect(body.thinking).toBeUndefined();
    expect(body.temperature).toBe(0.5);
  });

  it('without a client cap, uses the model limit, which holds the budget', () => {
    const attempt = testAttempt({ maxOutputTokens: 64000 });
    const body = toAnthropicMessages(request({ thinkingBudget: 16384 }), attempt, false);
    expect(body).toMatchObject({ max_tokens: 64000, thinking: { type: 'enabled', budget_tokens: 16384 } });
    expect(attempt.warnings).toEqual([]);
  });

  it('without a client cap or known limit, grows the default to hold the budget', () => {
    const body = toAnthropicMessages(request({ thinkingBudget: 16384 }), testAttempt(), false);
    expect(body).toMatchObject({ max_tokens: 16384 + 4096, thinking: { type: 'enabled', budget_tokens: 16384 } });
  });

  it('without a client cap, never grows the default past the model limit', () => {
    const attempt = testAttempt({ maxOutputTokens: 8192 }, { defaultMaxTokens: 1000 });
    const body = toAnthropicMessages(request({ thinkingBudget: 16384 }), attempt, false);
    expect(body).toMatchObject({ max_tokens: 8192, thinking: { type: 'enabled', budget_tokens: 8192 - 1024 } });
  });
});

describe('sampling with thinking on', () => {
  it('drops temperature, top_k and a low top_p, each with a warning', () => {
    const attempt = testAttempt();
    const body = toAnthropicMessages(request({ maxTokens: 8000, thinkingBudget: 2048, temperature: 0.2, topK: 5, topP: 0.5 }), attempt, false);
    expect(body.temperature).toBeUndefined();
    expect(body.top_k).toBeUndefined();
    expect(body.top_p).toBeUndefined();
    expect(attempt.warnings).toEqual([
      'temperature: dropped: Anthropic accepts only temperature 1 with thinking on',
      'top_p: dropped: Anthropic accepts only top_p of 0.95 or more with thinking on',
      'top_k: dropped: Anthropic accepts no top_k with thinking on',
    ]);
  });

  it('keeps a top_p of 0.95 or more and drops temperature 1 silently (it is the only value allowed)', () => {
    const attempt = testAttempt();
    const body = toAnthropicMessages(request({ maxTokens: 8000, thinkingBudget: 2048, temperature: 1, topP: 0.97 }), attempt, false);
    expect(body.top_p).toBe(0.97);
    expect(body.temperature).toBeUndefined();
    expect(attempt.warnings).toEqual([]);
  });
});

describe('a replayed tool call without its thinking', () => {
  it('leaves thinking off for the request and says why', () => {
    const attempt = testAttempt();
    const body = toAnthropicMessages(request({ maxTokens: 8000, thinkingBudget: 2048, temperature: 0.4, messages: [ASK, CALL, RESULT] }), attempt, false);
    expect(body.thinking).toBeUndefined();
    expect(body.temperature).toBe(0.4);
    expect(attempt.warnings).toHaveLength(1);
    expect(attempt.warnings[0]).toMatch(/^thinking: left off for this request: the last assistant turn replays a tool call without its thinking block/);
  });

  it('keeps thinking on when the replayed turn starts with its signed thinking', () => {
    const signed: ChatMessage = { role: 'assistant', content: [{ type: 'thinking', text: 'Look it up.', signature: 'sig-1' }, ...CALL.content] };
    const attempt = testAttempt();
    const body = toAnthropicMessages(request({ maxTokens: 8000, thinkingBudget: 2048, messages: [ASK, signed, RESULT] }), attempt, false);
    expect(body.thinking).toEqual({ type: 'enabled', budget_tokens: 2048 });
    expect(body.messages[1].content).toEqual([
      { type: 'thinking', thinking: 'Look it up.', signature: 'sig-1' },
      { type: 'tool_use', id: 'call_1', name: 'get_weather', input: { city: 'Paris' } },
    ]);
    expect(attempt.warnings).toEqual([]);
  });

  it('looks only at the final assistant turn', () => {
    const answered: ChatMessage = { role: 'assistant', content: [{ type: 'text', text: 'It is sunny.' }] };
    const next: ChatMessage = { role: 'user', content: [{ type: 'text', text: 'And tomorrow?' }] };
    const body = toAnthropicMessages(request({ maxTokens: 8000, thinkingBudget: 2048, messages: [ASK, CALL, RESULT, answered, next] }), testAttempt(), false);
    expect(body.thinking).toEqual({ type: 'enabled', budget_tokens: 2048 });
  });

  it('replaysToolUseWithoutThinking reads the wire turns', () => {
    expect(replaysToolUseWithoutThinking([{ role: 'user', content: 'Hi' }])).toBe(false);
    expect(
      replaysToolUseWithoutThinking([
        { role: 'user', content: 'Hi' },
        {
          role: 'assistant',
          content: [
            { type: 'redacted_thinking', data: 'enc' },
            { type: 'tool_use', id: 't', name: 'f', input: {} },
          ],
        },
      ]),
    ).toBe(false);
    expect(
      replaysToolUseWithoutThinking([
        { role: 'user', content: 'Hi' },
        {
          role: 'assistant',
          content: [
            { type: 'text', text: 'Using f.' },
            { type: 'tool_use', id: 't', name: 'f', input: {} },
          ],
        },
      ]),
    ).toBe(true);
  });
});
