import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../core/errors.js';
import { parseAnthropicMessagesRequest } from './parse-messages-request.js';

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

function base(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { model: 'textmodel-a-sonnet-4-20250514', max_tokens: 256, messages: [{ role: 'user', content: 'Hi' }], ...extra };
}

function errorOf(body: unknown): GatewayError {
  try {
    parseAnthropicMessagesRequest(body);
  } catch (error) {
    expect(error).toBeInstanceOf(GatewayError);
    return error as GatewayError;
  }
  throw new Error('expected the body to be rejected');
}

function expectRejected(body: unknown, param: string): GatewayError {
  const error = errorOf(body);
  expect(error.kind).toBe('invalid_request');
  expect(error.status).toBe(400);
  expect(error.param).toBe(param);
  expect(error.message).toContain(param);
  return error;
}

describe('parseAnthropicMessagesRequest', () => {
  it('parses a minimal request', () => {
    expect(parseAnthropicMessagesRequest(base())).toEqual({
      model: 'textmodel-a-sonnet-4-20250514',
      maxTokens: 256,
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }],
      stream: false,
    });
  });

  it('parses every option', () => {
    const request = parseAnthropicMessagesRequest(
      base({
        system: [{ type: 'text', text: 'Be brief.', cache_control: { type: 'ephemeral', ttl: '1h' } }],
        temperature: 0.5,
        top_p: 0.9,
        top_k: 40,
        stop_sequences: ['END'],
        stream: true,
        metadata: { user_id: 'user-42' },
        thinking: { type: 'enabled', budget_tokens: 2048 },
      }),
    );
    expect(request).toEqual({
      model: 'textmodel-a-sonnet-4-20250514',
      maxTokens: 256,
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }],
      stream: true,
      system: [{ type: 'text', text: 'Be brief.', cacheControl: { type: 'ephemeral', ttl: '1h' } }],
      temperature: 0.5,
      topP: 0.9,
      topK: 40,
      stop: ['END'],
      user: 'user-42',
      thinkingBudget: 2048,
    });
  });

  it('takes a string system prompt and ignores disabled thinking', () => {
    const request = parseAnthropicMessagesRequest(base({ system: 'You are terse.', thinking: { type: 'disabled' } }));
    expect(request.system).toEqual([{ type: 'text', text: 'You are terse.' }]);
    expect(request.thinkingBudget).toBeUndefined();
  });

  it('parses tools, tool_choice and disable_parallel_tool_use', () => {
    const schema = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] };
    const request = parseAnthropicMessagesRequest(
      base({
        tools: [
          { name: 'get_weather', description: 'Weather now', input_schema: schema },
          { type: 'custom', name: 'noop', input_schema: { type: 'object' } },
        ],
        tool_choice: { type: 'tool', name: 'get_weather', disable_parallel_tool_use: true },
      }),
    );
    expect(request.tools).toEqual([
      { name: 'get_weather', description: 'Weather now', parameters: schema },
      { name: 'noop', parameters: { type: 'object' } },
    ]);
    expect(request.toolChoice).toEqual({ type: 'tool', name: 'get_weather' });
    expect(request.parallelToolCalls).toBe(false);
  });

  it.each([
    [{ type: 'auto' }, { type: 'auto' }],
    [{ type: 'any' }, { type: 'required' }],
    [{ type: 'none' }, { type: 'none' }],
  ])('maps tool_choice %j to %j', (wire, canonical) => {
    const request = parseAnthropicMessagesRequest(base({ tools: [{ name: 't', input_schema: { type: 'object' } }], tool_choice: wire }));
    expect(request.toolChoice).toEqual(canonical);
    expect(request.parallelToolCalls).toBeUndefined();
  });

  it('parses image, document and cached text blocks', () => {
    const request = parseAnthropicMessagesRequest(
      base({
        messages: [
          {
            role: 'user',
            content: [
              { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG } },
              { type: 'image', source: { type: 'url', url: 'https://example.com/cat.jpg' } },
              {
                type: 'document',
                source: { type: 'base64', media_type: 'application/pdf', data: 'JVBERi0xLjQK' },
                title: 'Report',
                context: 'Q3 numbers',
                cache_control: { type: 'ephemeral' },
              },
              { type: 'document', source: { type: 'text', media_type: 'text/plain', data: 'plain words' } },
              { type: 'document', source: { type: 'url', url: 'https://example.com/a.pdf' } },
              { type: 'text', text: 'Summarise.', cache_control: { type: 'ephemeral' } },
            ],
          },
        ],
      }),
    );
    expect(request.messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'image', source: { kind: 'base64', mediaType: 'image/png', data: PNG } },
          { type: 'image', source: { kind: 'url', url: 'https://example.com/cat.jpg' } },
          {
            type: 'document',
            source: { kind: 'base64', mediaType: 'application/pdf', data: 'JVBERi0xLjQK' },
            title: 'Report',
            context: 'Q3 numbers',
            cacheControl: { type: 'ephemeral' },
          },
          { type: 'document', source: { kind: 'text', text: 'plain words', mediaType: 'text/plain' } },
          { type: 'document', source: { kind: 'url', url: 'https://example.com/a.pdf' } },
          { type: 'text', text: 'Summarise.', cacheControl: { type: 'ephemeral' } },
        ],
      },
    ]);
  });

  it('turns assistant tool_use into tool calls and splits tool_result into a tool message before the user text', () => {
    const request = parseAnthropicMessagesRequest(
      base({
        messages: [
          { role: 'user', content: 'Weather in Paris?' },
          {
            role: 'assistant',
            content: [
              { type: 'thinking', thinking: 'Need the tool.', signature: 'sig-1' },
              { type: 'redacted_thinking', data: 'opaque' },
              { type: 'text', text: 'Checking.' },
              { type: 'tool_use', id: 'toolu_01', name: 'get_weather', input: { city: 'Paris' } },
            ],
          },
          {
            role: 'user',
            content: [
              { type: 'text', text: 'Also, thanks!' },
              { type: 'tool_result', tool_use_id: 'toolu_01', content: [{ type: 'text', text: '18°C' }], is_error: false },
            ],
          },
        ],
      }),
    );
    expect(request.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'Weather in Paris?' }] },
      {
        role: 'assistant',
        content: [
          { type: 'thinking', text: 'Need the tool.', signature: 'sig-1' },
          { type: 'thinking', text: '', redacted: 'opaque' },
          { type: 'text', text: 'Checking.' },
          { type: 'tool_call', id: 'toolu_01', name: 'get_weather', arguments: '{"city":"Paris"}' },
        ],
      },
      {
        role: 'tool',
        content: [{ type: 'tool_result', toolCallId: 'toolu_01', name: 'get_weather', content: [{ type: 'text', text: '18°C' }], isError: false }],
      },
      { role: 'user', content: [{ type: 'text', text: 'Also, thanks!' }] },
    ]);
  });

  it('keeps a string tool_result, marks errors, and yields only a tool message when nothing else was said', () => {
    const request = parseAnthropicMessagesRequest(
      base({
        messages: [
          { role: 'user', content: 'go' },
          { role: 'assistant', content: [{ type: 'tool_use', id: 'call_9', name: 'f', input: {} }] },
          { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'call_9', content: 'boom', is_error: true }] },
        ],
      }),
    );
    expect(request.messages.slice(2)).toEqual([
      { role: 'tool', content: [{ type: 'tool_result', toolCallId: 'call_9', name: 'f', content: 'boom', isError: true }] },
    ]);
  });

  describe('tool search (tool_reference blocks, defer_loading tools)', () => {
    const schema = { type: 'object', properties: {} };
    const searchTool = { name: 'ToolSearch', description: 'Finds deferred tools', input_schema: schema };
    const github = { name: 'mcp__github__create_issue', description: 'Create an issue', input_schema: schema, defer_loading: true };
    const slack = { name: 'mcp__slack__post_message', description: 'Post', input_schema: schema, defer_loading: true };
    const searched = [
      { role: 'user', content: 'File an issue' },
      { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_s', name: 'ToolSearch', input: { query: 'github issue' } }] },
      {
        role: 'user',
        content: [{ type: 'tool_result', tool_use_id: 'toolu_s', content: [{ type: 'tool_reference', tool_name: 'mcp__github__create_issue' }] }],
      },
    ];

    it('withholds deferred tools until referenced', () => {
      const request = parseAnthropicMessagesRequest(base({ tools: [searchTool, github, slack] }));
      expect(request.tools!.map((tool) => tool.name)).toEqual(['ToolSearch']);
    });

    it('a tool_reference makes its tool available and reads as a text the target accepts', () => {
      const request = parseAnthropicMessagesRequest(base({ tools: [searchTool, github, slack], messages: searched }));
      expect(request.tools!.map((tool) => tool.name)).toEqual(['ToolSearch', 'mcp__github__create_issue']);
      expect(request.tools![1]).toEqual({ name: 'mcp__github__create_issue', description: 'Create an issue', parameters: schema });
      expect(request.messages[2]).toEqual({
        role: 'tool',
        content: [
          {
            type: 'tool_result',
            toolCallId: 'toolu_s',
            name: 'ToolSearch',
            content: [{ type: 'text', text: 'Tool mcp__github__create_issue is now available.' }],
          },
        ],
      });
    });

    it('a deferred tool the model already called, or tool_choice names, stays available', () => {
      const called = [
        { role: 'user', content: 'Post it' },
        { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_p', name: 'mcp__slack__post_message', input: {} }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_p', content: 'ok' }] },
      ];
      expect(parseAnthropicMessagesRequest(base({ tools: [github, slack], messages: called })).tools!.map((t) => t.name)).toEqual(['mcp__slack__post_message']);
      const forced = parseAnthropicMessagesRequest(base({ tools: [github, slack], tool_choice: { type: 'tool', name: 'mcp__github__create_issue' } }));
      expect(forced.tools!.map((t) => t.name)).toEqual(['mcp__github__create_issue']);
    });

    it('tool_choice any with every tool deferred sends them all', () => {
      const request = parseAnthropicMessagesRequest(base({ tools: [github, slack], tool_choice: { type: 'any' } }));
      expect(request.tools!.map((t) => t.name)).toEqual(['mcp__github__create_issue', 'mcp__slack__post_message']);
    });

    it('refuses a tool_reference without a tool_name, and a non-boolean defer_loading', () => {
      expectRejected(
        base({ messages: [{ role: 'user', content: [{ type: 'tool_result', tool_use_id: 'a', content: [{ type: 'tool_reference' }] }] }] }),
        'messages[0].content[0].content[0].tool_name',
      );
      expectRejected(base({ tools: [{ ...github, defer_loading: 'yes' }] }), 'tools[0].defer_loading');
    });

    it('count_tokens bodies accept them too', () => {
      const request = parseAnthropicMessagesRequest({ model: 'm', tools: [searchTool, github], messages: searched }, { countOnly: true });
      expect(request.tools!.map((t) => t.name)).toEqual(['ToolSearch', 'mcp__github__create_issue']);
    });
  });

  it('appends role "system" turns (1.x SDKs) to the system prompt', () => {
    const request = parseAnthropicMessagesRequest(
      base({
        system: 'First.',
        messages: [
          { role: 'user', content: 'Hi' },
          { role: 'system', content: [{ type: 'text', text: 'Now answer in French.' }] },
        ],
      }),
    );
    expect(request.system).toEqual([
      { type: 'text', text: 'First.' },
      { type: 'text', text: 'Now answer in French.' },
    ]);
    expect(request.messages).toEqual([{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }]);
  });

  it('accepts the 0.x/1.x SDK count_tokens body without max_tokens when counting', () => {
    const { max_tokens: _omitted, ...body } = base();
    expect(parseAnthropicMessagesRequest(body, { countOnly: true }).maxTokens).toBeUndefined();
  });

  describe('rejects bad input naming the field', () => {
    it.each([
      ['model', { model: undefined }],
      ['max_tokens', { max_tokens: undefined }],
      ['max_tokens', { max_tokens: 0 }],
      ['max_tokens', { max_tokens: 1.5 }],
      ['messages', { messages: undefined }],
      ['messages', { messages: [] }],
      ['messages', { messages: 'hi' }],
      ['temperature', { temperature: 1.5 }],
      ['temperature', { temperature: -0.1 }],
      ['top_p', { top_p: 2 }],
      ['top_k', { top_k: -1 }],
      ['top_k', { top_k: 2.5 }],
      ['stop_sequences', { stop_sequences: 'END' }],
      ['stop_sequences[1]', { stop_sequences: ['a', 3] }],
      ['stream', { stream: 'yes' }],
      ['metadata.user_id', { metadata: { user_id: 5 } }],
      ['system', { system: 5 }],
      ['system[0].type', { system: [{ type: 'image', text: 'x' }] }],
      ['system[0].cache_control.type', { system: [{ type: 'text', text: 'x', cache_control: { type: 'forever' } }] }],
      ['thinking.type', { thinking: { type: 'sometimes' } }],
      ['thinking.budget_tokens', { thinking: { type: 'enabled' } }],
      ['thinking.budget_tokens', { thinking: { type: 'enabled', budget_tokens: 100 } }],
      ['tools', { tools: {} }],
      ['tools[0].type', { tools: [{ type: 'web_search_20250305', name: 'web_search' }] }],
      ['tools[0].name', { tools: [{ input_schema: { type: 'object' } }] }],
      ['tools[0].input_schema', { tools: [{ name: 'f' }] }],
      ['tool_choice.type', { tool_choice: { type: 'function' } }],
      ['tool_choice.name', { tool_choice: { type: 'tool' } }],
      ['tool_choice.disable_parallel_tool_use', { tool_choice: { type: 'auto', disable_parallel_tool_use: 'yes' } }],
    ])('%s', (param, extra) => {
      expectRejected(base(extra), param);
    });

    it.each([
      ['messages[0]', [5]],
      ['messages[0].role', [{ role: 'developer', content: 'x' }]],
      ['messages', [{ role: 'system', content: 'only a system turn' }]],
      [
        'messages[1].content[0].type',
        [
          { role: 'user', content: 'x' },
          { role: 'system', content: [{ type: 'image' }] },
        ],
      ],
      ['messages[0].content', [{ role: 'user' }]],
      ['messages[0].content', [{ role: 'user', content: '' }]],
      ['messages[0].content', [{ role: 'user', content: [] }]],
      ['messages[0].content', [{ role: 'user', content: 7 }]],
      ['messages[0].content[0].type', [{ role: 'user', content: [{ type: 'audio' }] }]],
      ['messages[0].content[0].text', [{ role: 'user', content: [{ type: 'text' }] }]],
      ['messages[0].content[0].type', [{ role: 'user', content: [{ type: 'tool_use', id: 'x', name: 'f', input: {} }] }]],
      [
        'messages[1].content[0].type',
        [
          { role: 'user', content: 'x' },
          { role: 'assistant', content: [{ type: 'image', source: {} }] },
        ],
      ],
      [
        'messages[1].content[0].input',
        [
          { role: 'user', content: 'x' },
          { role: 'assistant', content: [{ type: 'tool_use', id: 'a', name: 'f', input: 'x' }] },
        ],
      ],
      [
        'messages[1].content[0].id',
        [
          { role: 'user', content: 'x' },
          { role: 'assistant', content: [{ type: 'tool_use', name: 'f', input: {} }] },
        ],
      ],
      ['messages[0].content[0].tool_use_id', [{ role: 'user', content: [{ type: 'tool_result', content: 'x' }] }]],
      ['messages[0].content[0].content[0].type', [{ role: 'user', content: [{ type: 'tool_result', tool_use_id: 'a', content: [{ type: 'video' }] }] }]],
      ['messages[0].content[0].source', [{ role: 'user', content: [{ type: 'image' }] }]],
      ['messages[0].content[0].source.type', [{ role: 'user', content: [{ type: 'image', source: { type: 'file', file_id: 'f' } }] }]],
      [
        'messages[0].content[0].source.media_type',
        [{ role: 'user', content: [{ type: 'image', source: { type: 'base64', media_type: 'image/bmp', data: PNG } }] }],
      ],
      ['messages[0].content[0].source.url', [{ role: 'user', content: [{ type: 'image', source: { type: 'url', url: 'ftp://x/y.png' } }] }]],
      [
        'messages[0].content[0].source.media_type',
        [{ role: 'user', content: [{ type: 'document', source: { type: 'base64', media_type: 'application/zip', data: 'AAAA' } }] }],
      ],
      ['messages[0].content[0].title', [{ role: 'user', content: [{ type: 'document', source: { type: 'url', url: 'https://x/a.pdf' }, title: 3 }] }]],
    ])('%s', (param, messages) => {
      expectRejected(base({ messages }), param);
    });

    it('names the exact block whose base64 data is broken', () => {
      const error = expectRejected(
        base({
          messages: [
            { role: 'user', content: 'look' },
            { role: 'assistant', content: 'ok' },
            { role: 'user', content: [{ type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'not base64!' } }] },
          ],
        }),
        'messages[2].content[0].source.data',
      );
      expect(error.message).toBe('messages[2].content[0].source.data: expected non-empty base64 data');
    });

    it('rejects server tools with an unsupported-tool code', () => {
      const error = expectRejected(base({ tools: [{ type: 'bash_20250124', name: 'bash' }] }), 'tools[0].type');
      expect(error.code).toBe('unsupported_tool');
      expect(error.message).toContain('bash_20250124');
    });

    it('rejects a body that is not an object', () => {
      expect(errorOf([1, 2]).kind).toBe('invalid_request');
      expect(errorOf(undefined).kind).toBe('invalid_request');
    });
  });
});
