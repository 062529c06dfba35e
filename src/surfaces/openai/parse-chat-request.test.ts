import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../core/errors.js';
import { parseOpenAIChatRequest } from './parse-chat-request.js';

const user = (content: unknown) => ({ role: 'user', content });
const base = { model: 'textmodel-b-4o', messages: [user('hi')] };

function rejection(body: unknown): { param: string | undefined; message: string; status: number } {
  try {
    parseOpenAIChatRequest(body);
  } catch (error) {
    if (error instanceof GatewayError && error.kind === 'invalid_request') return { param: error.param, message: error.message, status: error.status };
    throw error;
  }
  throw new Error('expected the request to be rejected');
}

describe('parseOpenAIChatRequest', () => {
  it('parses a full request into the canonical form', () => {
    const request = parseOpenAIChatRequest({
      model: 'textmodel-b-4o',
      messages: [
        { role: 'system', content: 'You are terse.' },
        { role: 'developer', content: [{ type: 'text', text: 'Use metric units.' }] },
        {
          role: 'user',
          name: 'ann',
          content: [
            { type: 'text', text: 'What is in this picture, and the weather?' },
            { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=', detail: 'low' } },
            { type: 'image_url', image_url: { url: 'https://example.com/cat.jpg' } },
            { type: 'file', file: { filename: 'report.pdf', file_data: 'data:application/pdf;base64,JVBERi0xLjQ=' } },
          ],
        },
        {
          role: 'assistant',
          content: null,
          tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }],
        },
        { role: 'tool', tool_call_id: 'call_1', content: '{"temp":21}' },
        { role: 'assistant', content: 'It is 21 °C.' },
        { role: 'user', content: 'Thanks' },
      ],
      temperature: 0.2,
      top_p: 0.9,
      stop: ['END', 'STOP'],
      max_tokens: 100,
      max_completion_tokens: 200,
      n: 1,
      presence_penalty: 0.5,
      frequency_penalty: -0.5,
      seed: 7,
      user: 'user-42',
      response_format: { type: 'json_schema', json_schema: { name: 'answer', schema: { type: 'object' }, strict: true } },
      tools: [
        {
          type: 'function',
          function: {
            name: 'get_weather',
            description: 'Weather now',
            parameters: { type: 'object', properties: { city: { type: 'string' } } },
            strict: false,
          },
        },
        { type: 'function', function: { name: 'no_args' } },
      ],
      tool_choice: { type: 'function', function: { name: 'get_weather' } },
      parallel_tool_calls: false,
      stream: true,
      stream_options: { include_usage: true },
      reasoning_effort: 'low',
      logit_bias: { '50256': -100 },
      some_future_field: { anything: true },
    });
    expect(request).toEqual({
      model: 'textmodel-b-4o',
      system: [
        { type: 'text', text: 'You are terse.' },
        { type: 'text', text: 'Use metric units.' },
      ],
      messages: [
        {
          role: 'user',
          name: 'ann',
          content: [
            { type: 'text', text: 'What is in this picture, and the weather?' },
            { type: 'image', source: { kind: 'base64', mediaType: 'image/png', data: 'iVBORw0KGgo=' }, detail: 'low' },
            { type: 'image', source: { kind: 'url', url: 'https://example.com/cat.jpg' } },
            { type: 'document', filename: 'report.pdf', source: { kind: 'base64', mediaType: 'application/pdf', data: 'JVBERi0xLjQ=' } },
          ],
        },
        { role: 'assistant', content: [{ type: 'tool_call', id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}' }] },
        { role: 'tool', content: [{ type: 'tool_result', toolCallId: 'call_1', name: 'get_weather', content: '{"temp":21}' }] },
        { role: 'assistant', content: [{ type: 'text', text: 'It is 21 °C.' }] },
        { role: 'user', content: [{ type: 'text', text: 'Thanks' }] },
      ],
      temperature: 0.2,
      topP: 0.9,
      stop: ['END', 'STOP'],
      maxTokens: 200,
      presencePenalty: 0.5,
      frequencyPenalty: -0.5,
      seed: 7,
      user: 'user-42',
      responseFormat: { type: 'json_schema', name: 'answer', schema: { type: 'object' }, strict: true },
      tools: [
        { name: 'get_weather', description: 'Weather now', parameters: { type: 'object', properties: { city: { type: 'string' } } }, strict: false },
        { name: 'no_args', parameters: { type: 'object', properties: {} } },
      ],
      toolChoice: { type: 'tool', name: 'get_weather' },
      parallelToolCalls: false,
      stream: true,
      includeUsage: true,
      thinkingBudget: 1024,
    });
  });

  it('parses a minimal request with defaults', () => {
    expect(parseOpenAIChatRequest(base)).toEqual({
      model: 'textmodel-b-4o',
      messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }],
      stream: false,
    });
  });

  it('reads the type of a file sent as application/octet-stream from its filename', () => {
    const request = parseOpenAIChatRequest({
      model: 'm',
      messages: [
        user([
          { type: 'file', file: { filename: 'scan.PDF', file_data: 'data:application/octet-stream;base64,JVBERi0xLjQ=' } },
          { type: 'file', file: { filename: 'notes.md', file_data: 'data:application/octet-stream;base64,aGVsbG8=' } },
        ]),
      ],
    });
    expect(request.messages[0].content).toEqual([
      { type: 'document', filename: 'scan.PDF', source: { kind: 'base64', mediaType: 'application/pdf', data: 'JVBERi0xLjQ=' } },
      { type: 'document', filename: 'notes.md', source: { kind: 'base64', mediaType: 'text/markdown', data: 'aGVsbG8=' } },
    ]);
  });

  it('takes max_tokens alone, a single stop string, and plain base64 file data', () => {
    const request = parseOpenAIChatRequest({
      ...base,
      messages: [user([{ type: 'file', file: { filename: 'notes.txt', file_data: 'aGVsbG8=' } }])],
      max_tokens: 50,
      stop: 'END',
    });
    expect(request.maxTokens).toBe(50);
    expect(request.stop).toEqual(['END']);
    expect(request.messages[0].content[0]).toEqual({
      type: 'document',
      filename: 'notes.txt',
      source: { kind: 'base64', mediaType: 'text/plain', data: 'aGVsbG8=' },
    });
  });

  it('ignores include_usage when not streaming and maps tool_choice strings', () => {
    const request = parseOpenAIChatRequest({ ...base, stream_options: { include_usage: true }, tool_choice: 'none' });
    expect(request.includeUsage).toBeUndefined();
    expect(request.toolChoice).toEqual({ type: 'none' });
  });

  it.each([
    ['a body that is not an object', [1, 2], 'body'],
    ['a missing model', { messages: [user('hi')] }, 'model'],
    ['a model that is not a string', { ...base, model: 3 }, 'model'],
    ['missing messages', { model: 'm' }, 'messages'],
    ['empty messages', { model: 'm', messages: [] }, 'messages'],
    ['an unknown role', { model: 'm', messages: [{ role: 'robot', content: 'x' }] }, 'messages[0].role'],
    ['user content of the wrong type', { model: 'm', messages: [user(5)] }, 'messages[0].content'],
    ['an empty content array', { model: 'm', messages: [user([])] }, 'messages[0].content'],
    ['an unknown part type', { model: 'm', messages: [user([{ type: 'video' }])] }, 'messages[0].content[0].type'],
    ['input_audio', { model: 'm', messages: [user([{ type: 'input_audio', input_audio: { data: 'x', format: 'wav' } }])] }, 'messages[0].content[0].type'],
    [
      'an image url that is not a string',
      { model: 'm', messages: [user('a'), user([{ type: 'image_url', image_url: { url: 7 } }])] },
      'messages[1].content[0].image_url.url',
    ],
    [
      'an ftp image url',
      { model: 'm', messages: [user([{ type: 'image_url', image_url: { url: 'ftp://x/y.png' } }])] },
      'messages[0].content[0].image_url.url',
    ],
    [
      'a data URL that is not base64',
      { model: 'm', messages: [user([{ type: 'image_url', image_url: { url: 'data:image/png,abc' } }])] },
      'messages[0].content[0].image_url.url',
    ],
    [
      'an unknown image detail',
      { model: 'm', messages: [user([{ type: 'image_url', image_url: { url: 'https://x/y.png', detail: 'ultra' } }])] },
      'messages[0].content[0].image_url.detail',
    ],
    ['a file_id', { model: 'm', messages: [user([{ type: 'file', file: { file_id: 'file-abc' } }])] }, 'messages[0].content[0].file.file_id'],
    ['a file without data', { model: 'm', messages: [user([{ type: 'file', file: { filename: 'a.pdf' } }])] }, 'messages[0].content[0].file.file_data'],
    [
      'a system image part',
      { model: 'm', messages: [{ role: 'system', content: [{ type: 'image_url', image_url: { url: 'https://x' } }] }, user('a')] },
      'messages[0].content[0].type',
    ],
    [
      'an assistant message with neither content nor tool_calls',
      { model: 'm', messages: [user('a'), { role: 'assistant', content: null }] },
      'messages[1].content',
    ],
    [
      'tool call arguments that are not a string',
      { model: 'm', messages: [user('a'), { role: 'assistant', tool_calls: [{ id: 'c', type: 'function', function: { name: 'f', arguments: {} } }] }] },
      'messages[1].tool_calls[0].function.arguments',
    ],
    ['a tool message without tool_call_id', { model: 'm', messages: [{ role: 'tool', content: 'x' }] }, 'messages[0].tool_call_id'],
    ['temperature above 2', { ...base, temperature: 2.5 }, 'temperature'],
    ['top_p above 1', { ...base, top_p: 1.5 }, 'top_p'],
    ['five stop sequences', { ...base, stop: ['a', 'b', 'c', 'd', 'e'] }, 'stop'],
    ['a stop entry that is not a string', { ...base, stop: ['a', 1] }, 'stop[1]'],
    ['max_tokens of zero', { ...base, max_tokens: 0 }, 'max_tokens'],
    ['a fractional max_completion_tokens', { ...base, max_completion_tokens: 1.5 }, 'max_completion_tokens'],
    ['n above 128', { ...base, n: 129 }, 'n'],
    ['n of zero', { ...base, n: 0 }, 'n'],
    ['presence_penalty below -2', { ...base, presence_penalty: -3 }, 'presence_penalty'],
    ['frequency_penalty above 2', { ...base, frequency_penalty: 2.1 }, 'frequency_penalty'],
    ['a string seed', { ...base, seed: '7' }, 'seed'],
    ['a response_format of unknown type', { ...base, response_format: { type: 'xml' } }, 'response_format.type'],
    ['a json_schema without name', { ...base, response_format: { type: 'json_schema', json_schema: { schema: {} } } }, 'response_format.json_schema.name'],
    ['a non-function tool', { ...base, tools: [{ type: 'code_interpreter' }] }, 'tools[0].type'],
    ['a tool name with spaces', { ...base, tools: [{ type: 'function', function: { name: 'get weather' } }] }, 'tools[0].function.name'],
    ['a tool name of 65 characters', { ...base, tools: [{ type: 'function', function: { name: 'a'.repeat(65) } }] }, 'tools[0].function.name'],
    [
      'tool parameters that are not an object',
      { ...base, tools: [{ type: 'function', function: { name: 'f', parameters: 'x' } }] },
      'tools[0].function.parameters',
    ],
    [
      'tool_choice naming a function not in tools',
      { ...base, tools: [{ type: 'function', function: { name: 'f' } }], tool_choice: { type: 'function', function: { name: 'g' } } },
      'tool_choice.function.name',
    ],
    ['tool_choice required without tools', { ...base, tool_choice: 'required' }, 'tool_choice'],
    ['an unknown tool_choice string', { ...base, tool_choice: 'always' }, 'tool_choice'],
    ['a non-boolean stream', { ...base, stream: 'yes' }, 'stream'],
    ['a non-boolean include_usage', { ...base, stream: true, stream_options: { include_usage: 1 } }, 'stream_options.include_usage'],
    ['a non-boolean parallel_tool_calls', { ...base, parallel_tool_calls: 'no' }, 'parallel_tool_calls'],
    ['an unknown reasoning_effort', { ...base, reasoning_effort: 'extreme' }, 'reasoning_effort'],
  ])('rejects %s with a 400 naming the param', (_label, body, param) => {
    const error = rejection(body);
    expect(error.status).toBe(400);
    expect(error.param).toBe(param);
    expect(error.message.startsWith(`${param}:`)).toBe(true);
  });

  it('says file_id is not supported', () => {
    expect(rejection({ model: 'm', messages: [user([{ type: 'file', file: { file_id: 'file-abc' } }])] }).message).toContain('file_id is not supported');
  });
});
