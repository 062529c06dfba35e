import { describe, expect, it } from 'vitest';
import type { ChatRequest } from '../../core/chat.js';
import { toAnthropicMessages } from './to-anthropic-messages.js';
import type { Attempt, ChannelConfig } from '../types.js';

function testAttempt(channel: Partial<ChannelConfig> = {}, upstreamModel = 'claude-sonnet-4-20250514'): Attempt & { warnings: string[] } {
  const base: ChannelConfig = {
    name: 'anthropic-test',
    provider: 'anthropic',
    baseUrl: 'https://api.anthropic.com',
    apiKey: 'sk-ant-test',
    headers: {},
    timeoutMs: 5_000,
    options: {},
  };
  const warnings: string[] = [];
  return {
    channel: { ...base, ...channel },
    upstreamModel,
    signal: new AbortController().signal,
    requestId: 'req_test',
    warnings,
    warn: (message) => warnings.push(message),
  };
}

function request(extra: Partial<ChatRequest> = {}): ChatRequest {
  return { model: 'textmodel-a-sonnet-4-20250514', messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }], stream: false, ...extra };
}

describe('toAnthropicMessages', () => {
  it('builds a minimal body with the upstream model and default max_tokens', () => {
    expect(toAnthropicMessages(request(), testAttempt(), false)).toEqual({
      model: 'claude-sonnet-4-20250514',
      max_tokens: 4096,
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }],
    });
  });

  it('uses the channel defaultMaxTokens when the client gave none, and the client value over it', () => {
    const attempt = testAttempt({ options: { defaultMaxTokens: 1000 } });
    expect(toAnthropicMessages(request(), attempt, false).max_tokens).toBe(1000);
    expect(toAnthropicMessages(request({ maxTokens: 50 }), attempt, false).max_tokens).toBe(50);
  });

  it('maps every option', () => {
    const body = toAnthropicMessages(
      request({
        system: [{ type: 'text', text: 'Be brief.', cacheControl: { type: 'ephemeral' } }],
        maxTokens: 300,
        temperature: 0.3,
        topP: 0.8,
        topK: 20,
        stop: ['END', 'STOP'],
        user: 'user-7',
        tools: [{ name: 'get_weather', description: 'Weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } }],
        toolChoice: { type: 'required' },
        parallelToolCalls: false,
        seed: 5,
        presencePenalty: 0.2,
      }),
      testAttempt(),
      true,
    );
    expect(body).toEqual({
      model: 'claude-sonnet-4-20250514',
      max_tokens: 300,
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }],
      system: [{ type: 'text', text: 'Be brief.', cache_control: { type: 'ephemeral' } }],
      temperature: 0.3,
      top_p: 0.8,
      top_k: 20,
      stop_sequences: ['END', 'STOP'],
      tools: [{ name: 'get_weather', description: 'Weather', input_schema: { type: 'object', properties: { city: { type: 'string' } } } }],
      tool_choice: { type: 'any', disable_parallel_tool_use: true },
      metadata: { user_id: 'user-7' },
      stream: true,
    });
  });

  it('clamps an OpenAI-range temperature to 1', () => {
    expect(toAnthropicMessages(request({ temperature: 1.8 }), testAttempt(), false).temperature).toBe(1);
  });

  it.each([
    [{ type: 'auto' } as const, undefined, { type: 'auto' }],
    [{ type: 'none' } as const, undefined, { type: 'none' }],
    [{ type: 'tool', name: 'f' } as const, false, { type: 'tool', name: 'f', disable_parallel_tool_use: true }],
    [undefined, false, { type: 'auto', disable_parallel_tool_use: true }],
    [undefined, true, undefined],
  ])('maps tool choice %j with parallel %s to %j', (toolChoice, parallelToolCalls, expected) => {
    const body = toAnthropicMessages(request({ tools: [{ name: 'f', parameters: { type: 'object' } }], toolChoice, parallelToolCalls }), testAttempt(), false);
    expect(body.tool_choice).toEqual(expected);
  });

  it('sends no tool_choice without tools, and gives a schema without type the object type', () => {
    expect(toAnthropicMessages(request({ toolChoice: { type: 'required' } }), testAttempt(), false).tool_choice).toBeUndefined();
    const body = toAnthropicMessages(request({ tools: [{ name: 'f', parameters: { properties: {} } }] }), testAttempt(), false);
    expect(body.tools).toEqual([{ name: 'f', input_schema: { type: 'object', properties: {} } }]);
  });

  it('enables thinking with a budget inside the client cap, dropping incompatible sampling', () => {
    const body = toAnthropicMessages(request({ thinkingBudget: 2048, maxTokens: 8000, temperature: 0.2, topK: 5, topP: 0.5 }), testAttempt(), false);
    expect(body.thinking).toEqual({ type: 'enabled', budget_tokens: 2048 });
    expect(body.max_tokens).toBe(8000);
    expect(body.temperature).toBeUndefined();
    expect(body.top_k).toBeUndefined();
    expect(body.top_p).toBeUndefined();
  });

  it('uses the model output limit the attempt carries when the client set no cap', () => {
    const attempt = { ...testAttempt(), maxOutputTokens: 64000 };
    expect(toAnthropicMessages(request(), attempt, false).max_tokens).toBe(64000);
    expect(toAnthropicMessages(request({ maxTokens: 10 }), attempt, false).max_tokens).toBe(10);
  });

  it('sends a JSON schema natively as output_config.format, closing its objects, with no instruction', () => {
    const schema = { type: 'object', properties: { answer: { type: 'string' } }, required: ['answer'] };
    const attempt = testAttempt();
    const body = toAnthropicMessages(
      request({ system: [{ type: 'text', text: 'You are helpful.' }], responseFormat: { type: 'json_schema', name: 'a', schema, strict: true } }),
      attempt,
      false,
    );
    expect(body.output_config).toEqual({ format: { type: 'json_schema', schema: { ...schema, additionalProperties: false } } });
    expect(body.system).toEqual([{ type: 'text', text: 'You are helpful.' }]);
    expect(attempt.warnings).toEqual([]);
    expect(toAnthropicMessages(request({ responseFormat: { type: 'text' } }), testAttempt(), false)).not.toHaveProperty('output_config');
  });

  it('asks for json_object in the system prompt, with a warning: Anthropic has no schema-less JSON mode', () => {
    const attempt = testAttempt();
    const body = toAnthropicMessages(request({ responseFormat: { type: 'json_object' } }), attempt, false);
    expect(body.output_config).toBeUndefined();
    expect(body.system).toEqual([{ type: 'text', text: 'Respond with a single valid JSON object and nothing else: no prose, no code fences.' }]);
    expect(attempt.warnings).toEqual(['response_format: json_object has no Anthropic counterpart, asked for in the system prompt']);
  });

  it('falls back to the instruction, with a warning, on a channel configured without structured output', () => {
    const schema = { type: 'object', properties: { answer: { type: 'string' } }, required: ['answer'] };
    const attempt = testAttempt({ options: { structuredOutput: false } });
    const body = toAnthropicMessages(
      request({ system: [{ type: 'text', text: 'You are helpful.' }], responseFormat: { type: 'json_schema', schema } }),
      attempt,
      false,
    );
    expect(body.output_config).toBeUndefined();
    expect(body.system).toEqual([
      { type: 'text', text: 'You are helpful.' },
      {
        type: 'text',
        text: `Respond with a single valid JSON object and nothing else (no prose, no code fences) that conforms to this JSON Schema:\n${JSON.stringify(schema)}`,
      },
    ]);
    expect(attempt.warnings).toEqual([
      'response_format: channel anthropic-test is configured without native structured output, asked for in the system prompt instead',
    ]);
  });

  it('warns of every setting it drops or approximates', () => {
    const attempt = testAttempt();
    toAnthropicMessages(
      request({ seed: 1, presencePenalty: 0.5, frequencyPenalty: 0.5, temperature: 1.5, tools: [{ name: 'f', parameters: { type: 'object' }, strict: true }] }),
      attempt,
      false,
    );
    expect(attempt.warnings).toEqual([
      'seed: not supported by Anthropic, dropped',
      'presence_penalty: not supported by Anthropic, dropped',
      'frequency_penalty: not supported by Anthropic, dropped',
      'tools.strict: not sent to Anthropic, dropped',
      "temperature: 1.5 is above Anthropic's maximum, sent as 1",
    ]);
    const thinking = testAttempt();
    toAnthropicMessages(request({ thinkingBudget: 2048, temperature: 0.2, topK: 5, topP: 0.5 }), thinking, false);
    expect(thinking.warnings).toEqual([
      'temperature: dropped: Anthropic accepts only temperature 1 with thinking on',
      'top_p: dropped: Anthropic accepts only top_p of 0.95 or more with thinking on',
      'top_k: dropped: Anthropic accepts no top_k with thinking on',
    ]);
    const quiet = testAttempt();
    toAnthropicMessages(request({ temperature: 0.5, topP: 0.9, topK: 10, stop: ['x'], user: 'u' }), quiet, false);
    expect(quiet.warnings).toEqual([]);
  });

  it('drops thinking another vendor signed, with a warning, and replays its own', () => {
    const attempt = testAttempt();
    const body = toAnthropicMessages(
      request({
        messages: [
          { role: 'user', content: [{ type: 'text', text: 'Hi' }] },
          {
            role: 'assistant',
            content: [
              { type: 'thinking', text: 'theirs', signature: 'gemini-sig', origin: 'gemini' },
              { type: 'thinking', text: 'ours', signature: 'anthropic-sig', origin: 'anthropic' },
              { type: 'text', text: 'Hello' },
            ],
          },
          { role: 'user', content: [{ type: 'text', text: 'Again' }] },
        ],
      }),
      attempt,
      false,
    );
    expect(body.messages[1]).toEqual({
      role: 'assistant',
      content: [
        { type: 'thinking', thinking: 'ours', signature: 'anthropic-sig' },
        { type: 'text', text: 'Hello' },
      ],
    });
    expect(attempt.warnings).toEqual(['reasoning: thinking signed by another vendor dropped (1 from gemini): anthropic cannot verify it']);
  });

  it('keeps thinking of unknown origin as before, without a warning', () => {
    const attempt = testAttempt();
    const body = toAnthropicMessages(
      request({
        messages: [
          { role: 'user', content: [{ type: 'text', text: 'Hi' }] },
          {
            role: 'assistant',
            content: [
              { type: 'thinking', text: 'mine', signature: 'sig' },
              { type: 'text', text: 'Hello' },
            ],
          },
          { role: 'user', content: [{ type: 'text', text: 'Again' }] },
        ],
      }),
      attempt,
      false,
    );
    expect(body.messages[1].content).toEqual([
      { type: 'thinking', thinking: 'mine', signature: 'sig' },
      { type: 'text', text: 'Hello' },
    ]);
    expect(attempt.warnings).toEqual([]);
  });
});
