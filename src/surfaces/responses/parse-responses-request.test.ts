import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../core/errors.js';
import type { ResponseItem } from '../../core/responses.js';
import { parseResponsesRequest } from './parse-responses-request.js';
import type { ParseContext } from './seams.js';

function context(history: ResponseItem[] = []): ParseContext {
  return { history, openReasoning: () => undefined };
}

const base = { model: 'textmodel-b-5', input: 'Hi' };

function rejection(body: unknown, ctx = context()): { param: string | undefined; message: string; status: number } {
  try {
    parseResponsesRequest(body, ctx);
  } catch (error) {
    if (error instanceof GatewayError && error.kind === 'invalid_request') return { param: error.param, message: error.message, status: error.status };
    throw error;
  }
  throw new Error('expected the request to be rejected');
}

const weather = {
  type: 'function',
  name: 'get_weather',
  description: 'Weather of a city',
  parameters: { type: 'object', properties: { city: { type: 'string' } } },
};

describe('parseResponsesRequest', () => {
  it('parses a minimal request, echoing what OpenAI echoes with its defaults', () => {
    const parsed = parseResponsesRequest(base, context());
    expect(parsed.canonical).toEqual({ model: 'textmodel-b-5', messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }], stream: false });
    expect(parsed.echo).toEqual({
      instructions: null,
      tools: [],
      tool_choice: 'auto',
      temperature: 1,
      top_p: 1,
      max_output_tokens: null,
      text: { format: { type: 'text' }, verbosity: 'medium' },
      reasoning: { effort: null, summary: null },
      metadata: {},
      parallel_tool_calls: true,
      store: true,
      truncation: 'disabled',
      previous_response_id: null,
      background: false,
      service_tier: 'auto',
      user: null,
      safety_identifier: null,
      prompt_cache_key: null,
      max_tool_calls: null,
      top_logprobs: 0,
    });
    expect(parsed.include).toEqual([]);
    expect(parsed.includeObfuscation).toBe(true);
    expect(parsed.inputItems).toHaveLength(1);
  });

  it('parses a full request into the canonical form and the echo', () => {
    const parsed = parseResponsesRequest(
      {
        model: 'textmodel-b-5',
        instructions: 'You are terse.',
        input: [
          { role: 'developer', content: 'Metric units.' },
          { role: 'user', content: 'Weather in Paris?' },
        ],
        tools: [weather, { type: 'function', name: 'noop', strict: true }],
        tool_choice: { type: 'function', name: 'get_weather' },
        parallel_tool_calls: false,
        max_output_tokens: 500,
        temperature: 0.2,
        top_p: 0.9,
        text: { format: { type: 'json_schema', name: 'answer', schema: { type: 'object' }, strict: true, description: 'The answer' }, verbosity: 'low' },
        reasoning: { effort: 'medium', summary: 'auto' },
        include: ['reasoning.encrypted_content', 'reasoning.encrypted_content'],
        metadata: { team: 'blue' },
        store: false,
        stream: true,
        stream_options: { include_obfuscation: false },
        previous_response_id: 'resp_1',
        truncation: 'auto',
        prompt_cache_key: 'cache-1',
        safety_identifier: 'hashed-user',
        user: 'legacy-user',
        service_tier: 'flex',
        max_tool_calls: 3,
        background: false,
        some_future_field: { anything: true },
      },
      context(),
    );
    expect(parsed.canonical).toEqual({
      model: 'textmodel-b-5',
      system: [
        { type: 'text', text: 'You are terse.' },
        { type: 'text', text: 'Metric units.' },
      ],
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Weather in Paris?' }] }],
      stream: true,
      includeUsage: true,
      maxTokens: 500,
      temperature: 0.2,
      topP: 0.9,
      tools: [
        { name: 'get_weather', description: 'Weather of a city', parameters: weather.parameters },
        { name: 'noop', parameters: { type: 'object', properties: {} }, strict: true },
      ],
      toolChoice: { type: 'tool', name: 'get_weather' },
      parallelToolCalls: false,
      responseFormat: { type: 'json_schema', name: 'answer', schema: { type: 'object' }, strict: true },
      thinkingBudget: 4096,
      user: 'hashed-user',
    });
    expect(parsed.echo).toEqual({
      instructions: 'You are terse.',
      tools: [
        { type: 'function', name: 'get_weather', description: 'Weather of a city', parameters: weather.parameters, strict: null },
        { type: 'function', name: 'noop', description: null, parameters: null, strict: true },
      ],
      tool_choice: { type: 'function', name: 'get_weather' },
      temperature: 0.2,
      top_p: 0.9,
      max_output_tokens: 500,
      text: { format: { type: 'json_schema', name: 'answer', schema: { type: 'object' }, strict: true, description: 'The answer' }, verbosity: 'low' },
      reasoning: { effort: 'medium', summary: 'auto' },
      metadata: { team: 'blue' },
      parallel_tool_calls: false,
      store: false,
      truncation: 'auto',
      previous_response_id: 'resp_1',
      background: false,
      service_tier: 'flex',
      user: 'legacy-user',
      safety_identifier: 'hashed-user',
      prompt_cache_key: 'cache-1',
      max_tool_calls: 3,
      top_logprobs: 0,
    });
    expect(parsed.include).toEqual(['reasoning.encrypted_content']);
    expect(parsed.includeObfuscation).toBe(false);
    expect(parsed.inputItems.map((item) => item.role)).toEqual(['developer', 'user']);
  });

  it('maps reasoning.effort as the chat surface maps reasoning_effort', () => {
    const budget = (effort: string) => parseResponsesRequest({ ...base, reasoning: { effort } }, context()).canonical.thinkingBudget;
    expect(budget('low')).toBe(1024);
    expect(budget('medium')).toBe(4096);
    expect(budget('high')).toBe(16384);
    expect(budget('xhigh')).toBe(24576);
    expect(budget('max')).toBe(32768);
    expect(budget('minimal')).toBeUndefined();
    expect(budget('none')).toBeUndefined();
    expect(rejection({ ...base, reasoning: { effort: 'extreme' } }).param).toBe('reasoning.effort');
    expect(parseResponsesRequest({ ...base, reasoning: { generate_summary: 'concise' } }, context()).echo.reasoning).toEqual({
      effort: null,
      summary: 'concise',
    });
  });

  it('reads text formats: json_object and text', () => {
    expect(parseResponsesRequest({ ...base, text: { format: { type: 'json_object' } } }, context()).canonical.responseFormat).toEqual({ type: 'json_object' });
    const plain = parseResponsesRequest({ ...base, text: { format: { type: 'text' } } }, context());
    expect(plain.canonical.responseFormat).toEqual({ type: 'text' });
    expect(plain.echo.text).toEqual({ format: { type: 'text' }, verbosity: 'medium' });
  });

  it('asks for log probabilities when include or top_logprobs does', () => {
    const included = parseResponsesRequest({ ...base, include: ['message.output_text.logprobs'] }, context()).canonical;
    expect(included.logprobs).toBe(true);
    const top = parseResponsesRequest({ ...base, top_logprobs: 5 }, context());
    expect(top.canonical).toMatchObject({ logprobs: true, topLogprobs: 5 });
    expect(top.echo.top_logprobs).toBe(5);
  });

  it('takes user as the canonical user when there is no safety_identifier', () => {
    expect(parseResponsesRequest({ ...base, user: 'u-1' }, context()).canonical.user).toBe('u-1');
  });

  it('puts the history before this turn and takes no instructions from it', () => {
    const history: ResponseItem[] = [
      { type: 'message', id: 'msg_1', role: 'user', content: [{ type: 'input_text', text: 'Earlier' }] },
      { type: 'message', id: 'msg_2', role: 'assistant', content: [{ type: 'output_text', text: 'Reply', annotations: [] }] },
    ];
    const parsed = parseResponsesRequest({ ...base, input: 'Now', previous_response_id: 'resp_0' }, context(history));
    expect(parsed.canonical.system).toBeUndefined();
    expect(parsed.canonical.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'user']);
    expect(parsed.inputItems).toHaveLength(1);
    const withoutInput = parseResponsesRequest({ model: 'm', previous_response_id: 'resp_0' }, context(history));
    expect(withoutInput.canonical.messages).toHaveLength(2);
    expect(withoutInput.inputItems).toEqual([]);
  });

  it('narrows the tools to those allowed_tools names', () => {
    const parsed = parseResponsesRequest(
      {
        ...base,
        tools: [weather, { type: 'function', name: 'clock' }],
        tool_choice: { type: 'allowed_tools', mode: 'required', tools: [{ type: 'function', name: 'clock' }] },
      },
      context(),
    );
    expect(parsed.canonical.tools?.map((tool) => tool.name)).toEqual(['clock']);
    expect(parsed.canonical.toolChoice).toEqual({ type: 'required' });
    expect(parsed.echo.tool_choice).toEqual({ type: 'allowed_tools', mode: 'required', tools: [{ type: 'function', name: 'clock' }] });
    expect((parsed.echo.tools as unknown[]).length).toBe(2);
  });

  it('leaves hosted tools out with a warning naming each by position, and refuses a tool_choice that forces one', () => {
    for (const type of [
      'web_search',
      'web_search_preview',
      'file_search',
      'code_interpreter',
      'image_generation',
      'mcp',
      'computer_use_preview',
      'local_shell',
      'custom',
    ]) {
      const parsed = parseResponsesRequest({ ...base, tools: [weather, { type: 'function', name: 'b' }, { type }] }, context());
      expect(parsed.canonical.tools?.map((tool) => tool.name)).toEqual(['get_weather', 'b']);
      expect(parsed.warnings).toEqual([
        `tools[2]: the hosted tool "${type}" was left out: it runs on OpenAI's side and this request is translated for its upstream`,
      ]);
      expect(parsed.echo.tools).toContainEqual({ type });
    }
    const forced = rejection({ ...base, tools: [weather, { type: 'web_search' }], tool_choice: { type: 'web_search_preview' } });
    expect(forced.param).toBe('tool_choice.type');
    expect(forced.status).toBe(400);
    expect(forced.message).toContain('"web_search_preview" is a hosted tool');
    expect(
      rejection({ ...base, tools: [weather], tool_choice: { type: 'allowed_tools', mode: 'auto', tools: [{ type: 'mcp', server_label: 'x' }] } }).param,
    ).toBe('tool_choice.tools[0].type');
  });

  it("turns a namespace tool's functions into canonical tools named namespace__name, and a namespaced call back", () => {
    const namespace = {
      type: 'namespace',
      name: 'multi_agent_v1',
      description: 'Sub-agents',
      tools: [
        { type: 'function', name: 'spawn_agent', description: 'Start one', parameters: { type: 'object', properties: { task: { type: 'string' } } } },
        { type: 'custom', name: 'free' },
      ],
    };
    const parsed = parseResponsesRequest(
      {
        ...base,
        tools: [weather, namespace],
        input: [
          { role: 'user', content: 'delegate' },
          { type: 'function_call', call_id: 'call_1', namespace: 'multi_agent_v1', name: 'spawn_agent', arguments: '{"task":"x"}' },
          { type: 'function_call_output', call_id: 'call_1', output: 'started' },
        ],
      },
      context(),
    );
    expect(parsed.canonical.tools?.map((tool) => tool.name)).toEqual(['get_weather', 'multi_agent_v1__spawn_agent']);
    expect(parsed.toolNamespaces.get('multi_agent_v1__spawn_agent')).toEqual({ namespace: 'multi_agent_v1', name: 'spawn_agent' });
    expect(parsed.warnings).toEqual(['tools[1].tools[1]: the "custom" tool of namespace multi_agent_v1 was left out: only its function tools translate']);
    expect(parsed.canonical.messages[1].content).toEqual([{ type: 'tool_call', id: 'call_1', name: 'multi_agent_v1__spawn_agent', arguments: '{"task":"x"}' }]);
    expect(parsed.canonical.messages[2].content[0]).toMatchObject({ type: 'tool_result', toolCallId: 'call_1', name: 'multi_agent_v1__spawn_agent' });
    expect(parsed.inputItems[1]).toMatchObject({ type: 'function_call', namespace: 'multi_agent_v1', name: 'spawn_agent' });
  });

  it('names the parameter of each bad tool or tool choice', () => {
    expect(rejection({ ...base, tools: {} }).param).toBe('tools');
    expect(rejection({ ...base, tools: [{ type: 'function', name: 'bad name' }] }).param).toBe('tools[0].name');
    expect(rejection({ ...base, tools: [weather, weather] }).param).toBe('tools[1].name');
    expect(rejection({ ...base, tools: [{ type: 'function', name: 'f', parameters: 'x' }] }).param).toBe('tools[0].parameters');
    expect(rejection({ ...base, tools: [{ type: 'function', name: 'f', strict: 'yes' }] }).param).toBe('tools[0].strict');
    expect(rejection({ ...base, tools: Array.from({ length: 513 }, (_, i) => ({ type: 'function', name: `f${i}` })) }).param).toBe('tools');
    expect(rejection({ ...base, tool_choice: 'required' }).param).toBe('tool_choice');
    expect(rejection({ ...base, tool_choice: 'sometimes' }).param).toBe('tool_choice');
    expect(rejection({ ...base, tools: [weather], tool_choice: { type: 'function', name: 'other' } }).param).toBe('tool_choice.name');
    expect(rejection({ ...base, tools: [weather], tool_choice: { type: 'allowed_tools', mode: 'any', tools: [] } }).param).toBe('tool_choice.mode');
    expect(rejection({ ...base, tools: [weather], tool_choice: { type: 'allowed_tools', mode: 'auto', tools: [] } }).param).toBe('tool_choice.tools');
    expect(rejection({ ...base, tools: [weather], tool_choice: { type: 'allowed_tools', mode: 'auto', tools: [{ type: 'function', name: 'x' }] } }).param).toBe(
      'tool_choice.tools[0].name',
    );
  });

  it('names the parameter of each bad option', () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ temperature: 3 }, 'temperature'],
      [{ top_p: -1 }, 'top_p'],
      [{ max_output_tokens: 0 }, 'max_output_tokens'],
      [{ max_output_tokens: 1.5 }, 'max_output_tokens'],
      [{ top_logprobs: 21 }, 'top_logprobs'],
      [{ parallel_tool_calls: 'no' }, 'parallel_tool_calls'],
      [{ instructions: 7 }, 'instructions'],
      [{ text: 'json' }, 'text'],
      [{ text: { verbosity: 'loud' } }, 'text.verbosity'],
      [{ text: { format: { type: 'yaml' } } }, 'text.format.type'],
      [{ text: { format: { type: 'json_schema', schema: {} } } }, 'text.format.name'],
      [{ text: { format: { type: 'json_schema', name: 'has space', schema: {} } } }, 'text.format.name'],
      [{ text: { format: { type: 'json_schema', name: 'a' } } }, 'text.format.schema'],
      [{ reasoning: 'high' }, 'reasoning'],
      [{ reasoning: { summary: 'long' } }, 'reasoning.summary'],
      [{ include: ['everything'] }, 'include[0]'],
      [{ include: 'reasoning.encrypted_content' }, 'include'],
      [{ metadata: [] }, 'metadata'],
      [{ metadata: { a: 1 } }, 'metadata.a'],
      [{ metadata: { a: 'x'.repeat(513) } }, 'metadata.a'],
      [{ metadata: { ['k'.repeat(65)]: 'v' } }, 'metadata'],
      [{ metadata: Object.fromEntries(Array.from({ length: 17 }, (_, i) => [`k${i}`, 'v'])) }, 'metadata'],
      [{ truncation: 'sometimes' }, 'truncation'],
      [{ service_tier: 'gold' }, 'service_tier'],
      [{ prompt_cache_key: 5 }, 'prompt_cache_key'],
      [{ safety_identifier: 'x'.repeat(513) }, 'safety_identifier'],
      [{ user: 'a\nb' }, 'user'],
      [{ stream_options: true }, 'stream_options'],
      [{ stream_options: { include_obfuscation: 'no' } }, 'stream_options.include_obfuscation'],
      [{ max_tool_calls: 0 }, 'max_tool_calls'],
      [{ conversation: 'conv_1' }, 'conversation'],
      [{ prompt: { id: 'pmpt_1' } }, 'prompt'],
    ];
    for (const [extra, param] of cases) {
      const error = rejection({ ...base, ...extra });
      expect({ extra, param: error.param, status: error.status }).toEqual({ extra, param, status: 400 });
    }
  });

  it('accepts metadata at its bounds', () => {
    const metadata = Object.fromEntries(Array.from({ length: 16 }, (_, i) => [`${i}`.padEnd(64, 'k'), 'v'.repeat(512)]));
    expect(parseResponsesRequest({ ...base, metadata }, context()).echo.metadata).toEqual(metadata);
  });

  it('needs something to answer', () => {
    expect(rejection({ model: 'm' }).param).toBe('input');
    expect(rejection({ model: 'm', input: [] }).param).toBe('input');
    expect(rejection({ model: 'm', input: [{ role: 'system', content: 'Only rules' }] }).param).toBe('input');
    expect(rejection({ input: 'hi' }).param).toBe('model');
    expect(rejection('text').param).toBe('body');
  });
});
