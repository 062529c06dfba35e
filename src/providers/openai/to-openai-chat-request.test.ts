import { describe, expect, it } from 'vitest';
import type { ChatRequest } from '../../core/chat.js';
import { GatewayError } from '../../core/errors.js';
import { toOpenAIChatRequest, type OpenAIRequestOptions } from './to-openai-chat-request.js';

const openai: OpenAIRequestOptions = { model: 'gpt-4o-2024-08-06', maxTokensField: 'max_completion_tokens', streamUsage: true };

describe('toOpenAIChatRequest', () => {
  it('maps a full canonical request to the OpenAI wire body', () => {
    const request: ChatRequest = {
      model: 'textmodel-b-4o',
      system: [
        { type: 'text', text: 'Be terse.' },
        { type: 'text', text: 'Use metric.' },
      ],
      messages: [
        {
          role: 'user',
          name: 'ann',
          content: [
            { type: 'text', text: 'Look:' },
            { type: 'image', source: { kind: 'base64', mediaType: 'image/png', data: 'iVBORw0KGgo=' }, detail: 'high' },
            { type: 'image', source: { kind: 'url', url: 'https://example.com/a.jpg' } },
            { type: 'document', source: { kind: 'base64', mediaType: 'application/pdf', data: 'JVBERi0=' }, filename: 'a.pdf' },
            { type: 'document', source: { kind: 'base64', mediaType: 'application/pdf', data: 'JVBERi1=' }, title: 'Untitled' },
            { type: 'document', source: { kind: 'text', text: 'plain notes' } },
          ],
        },
        {
          role: 'assistant',
          content: [
            { type: 'thinking', text: 'hmm', signature: 'sig' },
            { type: 'text', text: 'Checking.' },
            { type: 'tool_call', id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}' },
          ],
        },
        { role: 'tool', content: [{ type: 'tool_result', toolCallId: 'call_1', name: 'get_weather', content: '{"t":21}' }] },
        { role: 'assistant', content: [{ type: 'tool_call', id: 'call_2', name: 'get_time', arguments: '{}' }] },
        {
          role: 'tool',
          content: [
            {
              type: 'tool_result',
              toolCallId: 'call_2',
              content: [
                { type: 'text', text: 'noon' },
                { type: 'text', text: 'UTC' },
              ],
            },
          ],
        },
      ],
      maxTokens: 300,
      temperature: 0.5,
      topP: 0.8,
      topK: 40,
      stop: ['END'],
      tools: [{ name: 'get_weather', description: 'Weather', parameters: { type: 'object', properties: {} }, strict: true }],
      toolChoice: { type: 'tool', name: 'get_weather' },
      parallelToolCalls: false,
      responseFormat: { type: 'json_schema', schema: { type: 'object' } },
      seed: 3,
      presencePenalty: 0.1,
      frequencyPenalty: 0.2,
      user: 'u-1',
      stream: true,
      includeUsage: false,
    };
    expect(toOpenAIChatRequest(request, openai)).toEqual({
      model: 'gpt-4o-2024-08-06',
      messages: [
        { role: 'system', content: 'Be terse.\n\nUse metric.' },
        {
          role: 'user',
          name: 'ann',
          content: [
            { type: 'text', text: 'Look:' },
            { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=', detail: 'high' } },
            { type: 'image_url', image_url: { url: 'https://example.com/a.jpg' } },
            { type: 'file', file: { filename: 'a.pdf', file_data: 'data:application/pdf;base64,JVBERi0=' } },
            { type: 'file', file: { filename: 'Untitled.pdf', file_data: 'data:application/pdf;base64,JVBERi1=' } },
            { type: 'text', text: 'plain notes' },
          ],
        },
        {
          role: 'assistant',
          content: 'Checking.',
          tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }],
        },
        { role: 'tool', tool_call_id: 'call_1', content: '{"t":21}' },
        { role: 'assistant', content: null, tool_calls: [{ id: 'call_2', type: 'function', function: { name: 'get_time', arguments: '{}' } }] },
        {
          role: 'tool',
          tool_call_id: 'call_2',
          content: [
            { type: 'text', text: 'noon' },
            { type: 'text', text: 'UTC' },
          ],
        },
      ],
      temperature: 0.5,
      top_p: 0.8,
      stop: ['END'],
      max_completion_tokens: 300,
      presence_penalty: 0.1,
      frequency_penalty: 0.2,
      seed: 3,
      user: 'u-1',
      response_format: { type: 'json_schema', json_schema: { name: 'response', schema: { type: 'object' } } },
      tools: [{ type: 'function', function: { name: 'get_weather', description: 'Weather', parameters: { type: 'object', properties: {} }, strict: true } }],
      tool_choice: { type: 'function', function: { name: 'get_weather' } },
      parallel_tool_calls: false,
      stream: true,
      stream_options: { include_usage: true },
    });
  });

  it('sends max_tokens to compatible servers, a lone text part as a string, and no stream_options when turned off', () => {
    const body = toOpenAIChatRequest(
      { model: 'local', messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }], maxTokens: 64, stream: true, toolChoice: { type: 'auto' } },
      { model: 'llama3.1:8b', maxTokensField: 'max_tokens', streamUsage: false },
    );
    expect(body).toEqual({ model: 'llama3.1:8b', messages: [{ role: 'user', content: 'hi' }], max_tokens: 64, tool_choice: 'auto', stream: true });
  });

  it('leaves out parallel_tool_calls when there are no tools and stream when not streaming', () => {
    const body = toOpenAIChatRequest(
      { model: 'm', messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }], parallelToolCalls: true, stream: false },
      openai,
    );
    expect(body).toEqual({ model: 'gpt-4o-2024-08-06', messages: [{ role: 'user', content: 'hi' }] });
  });

  it('turns a base64 text document into a text part', () => {
    const body = toOpenAIChatRequest(
      {
        model: 'm',
        messages: [{ role: 'user', content: [{ type: 'document', source: { kind: 'base64', mediaType: 'text/plain', data: 'aGVsbG8gd29ybGQ=' } }] }],
        stream: false,
      },
      openai,
    );
    expect(body.messages).toEqual([{ role: 'user', content: 'hello world' }]);
  });

  it('emits tool results found in a user turn as tool messages before its text', () => {
    const body = toOpenAIChatRequest(
      {
        model: 'm',
        messages: [
          {
            role: 'user',
            content: [
              {
                type: 'tool_result',
                toolCallId: 'call_9',
                content: [
                  { type: 'text', text: 'done' },
                  { type: 'image', source: { kind: 'url', url: 'https://x/y.png' } },
                ],
              },
              { type: 'text', text: 'and now?' },
            ],
          },
        ],
        stream: false,
      },
      openai,
    );
    expect(body.messages).toEqual([
      {
        role: 'tool',
        tool_call_id: 'call_9',
        content: [
          { type: 'text', text: 'done' },
          { type: 'text', text: '[image]' },
        ],
      },
      { role: 'user', content: 'and now?' },
    ]);
  });

  it('refuses a document given by URL with an invalid_request naming it', () => {
    const call = () =>
      toOpenAIChatRequest(
        {
          model: 'm',
          messages: [
            {
              role: 'user',
              content: [
                { type: 'text', text: 'x' },
                { type: 'document', source: { kind: 'url', url: 'https://x/a.pdf' } },
              ],
            },
          ],
          stream: false,
        },
        openai,
      );
    expect(call).toThrow(GatewayError);
    try {
      call();
    } catch (error) {
      expect((error as GatewayError).kind).toBe('invalid_request');
      expect((error as GatewayError).param).toBe('messages[0].content[1]');
    }
  });
  it('sends JSON and other text documents as text, and a PDF data URL as a file part', () => {
    const json = Buffer.from('{"a":1}').toString('base64');
    const body = toOpenAIChatRequest(
      {
        model: 'm',
        messages: [
          {
            role: 'user',
            content: [
              { type: 'document', source: { kind: 'base64', mediaType: 'application/json', data: json } },
              { type: 'document', source: { kind: 'url', url: 'data:application/pdf;base64,JVBERi0=' } },
            ],
          },
        ],
        stream: false,
      },
      openai,
    );
    expect(body.messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: '{"a":1}' },
          { type: 'file', file: { filename: 'document.pdf', file_data: 'data:application/pdf;base64,JVBERi0=' } },
        ],
      },
    ]);
  });

  it('refuses a document type Chat Completions does not take, naming the part', () => {
    const call = () =>
      toOpenAIChatRequest(
        {
          model: 'm',
          messages: [{ role: 'user', content: [{ type: 'document', source: { kind: 'base64', mediaType: 'application/msword', data: 'AAAA' } }] }],
          stream: false,
        },
        openai,
      );
    expect(call).toThrow(
      expect.objectContaining({
        kind: 'invalid_request',
        param: 'messages[0].content[0]',
        message:
          'messages[0].content[0]: documents of type application/msword cannot be sent to an OpenAI-dialect upstream, which takes PDF and text documents only',
      }),
    );
  });

  it('sends response_format natively: json_schema with its name (default response) and strict, json_object as is', () => {
    const schema = { type: 'object', properties: { a: { type: 'string' } }, required: ['a'], additionalProperties: false };
    const base: ChatRequest = { model: 'm', stream: false, messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }] };
    expect(toOpenAIChatRequest({ ...base, responseFormat: { type: 'json_schema', name: 'report', schema, strict: true } }, openai).response_format).toEqual({
      type: 'json_schema',
      json_schema: { name: 'report', schema, strict: true },
    });
    expect(toOpenAIChatRequest({ ...base, responseFormat: { type: 'json_object' } }, openai).response_format).toEqual({ type: 'json_object' });
    expect(toOpenAIChatRequest({ ...base, responseFormat: { type: 'text' } }, openai)).not.toHaveProperty('response_format');
  });

  it('asks for JSON in the system message instead, with the warning, when the server has no structured output', () => {
    const warnings: string[] = [];
    const schema = { type: 'object', properties: { a: { type: 'string' } } };
    const body = toOpenAIChatRequest(
      {
        model: 'm',
        stream: false,
        system: [{ type: 'text', text: 'Be terse.' }],
        messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }],
        responseFormat: { type: 'json_schema', schema },
      },
      { ...openai, structuredOutput: false, fallbackWarning: 'response_format: fell back', warn: (message) => warnings.push(message) },
    );
    expect(body.response_format).toBeUndefined();
    expect(body.messages[0]).toEqual({
      role: 'system',
      content: `Be terse.\n\nRespond with a single valid JSON object and nothing else (no prose, no code fences) that conforms to this JSON Schema:\n${JSON.stringify(schema)}`,
    });
    expect(warnings).toEqual(['response_format: fell back']);
  });

  it('warns of top_k, a thinking budget and cache breakpoints, which the OpenAI dialect cannot carry', () => {
    const warnings: string[] = [];
    toOpenAIChatRequest(
      {
        model: 'm',
        stream: false,
        messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi', cacheControl: { type: 'ephemeral' } }] }],
        topK: 5,
        thinkingBudget: 1024,
        seed: 1,
        presencePenalty: 0.1,
      },
      { ...openai, warn: (message) => warnings.push(message) },
    );
    expect(warnings).toEqual([
      'top_k: not supported by OpenAI, dropped',
      'thinking_budget: not sent to OpenAI-dialect upstreams, dropped',
      'cache_control: OpenAI caches prompts automatically, breakpoints dropped',
    ]);
  });
});
