import { describe, expect, it } from 'vitest';
import type { ChatRequest } from '../../core/chat.js';
import { GatewayError } from '../../core/errors.js';
import type { Attempt, ChannelConfig } from '../types.js';
import { toGeminiRequest, usesOpenApiSchema } from './to-gemini-request.js';

function testAttempt(upstreamModel = 'gemini-2.5-flash', options: ChannelConfig['options'] = {}): Attempt & { warnings: string[] } {
  const warnings: string[] = [];
  const channel: ChannelConfig = { name: 'gemini-test', provider: 'gemini', baseUrl: '', apiKey: 'k', headers: {}, timeoutMs: 5_000, options };
  return { channel, upstreamModel, signal: new AbortController().signal, requestId: 'req_test', warnings, warn: (message) => warnings.push(message) };
}

const base: ChatRequest = { model: 'textmodel-c-2.5-flash', stream: false, messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }] };

describe('toGeminiRequest', () => {
  it('renders a plain request with only the fields given', () => {
    expect(toGeminiRequest(base, testAttempt())).toEqual({ contents: [{ role: 'user', parts: [{ text: 'Hi' }] }] });
  });

  it('renders a tool round trip: names found by id, results merged into one user turn, JSON objects kept', () => {
    const body = toGeminiRequest(
      {
        ...base,
        system: [{ type: 'text', text: 'You are terse.' }],
        messages: [
          { role: 'user', content: [{ type: 'text', text: 'Weather in Paris and Rome?' }] },
          {
            role: 'assistant',
            content: [
              { type: 'thinking', text: 'two calls', signature: 'sig-from-elsewhere' },
              { type: 'text', text: 'Checking.' },
              { type: 'tool_call', id: 'call_1', name: 'weather', arguments: '{"city":"Paris"}' },
              { type: 'tool_call', id: 'call_2', name: 'weather', arguments: '{"city":"Rome"}' },
            ],
          },
          { role: 'tool', content: [{ type: 'tool_result', toolCallId: 'call_1', content: '{"temp":21}' }] },
          { role: 'tool', content: [{ type: 'tool_result', toolCallId: 'call_2', content: 'sunny, 25 degrees' }] },
          { role: 'user', content: [{ type: 'text', text: 'And tomorrow?' }] },
        ],
        tools: [
          { name: 'weather', description: 'Weather by city', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } },
        ],
        toolChoice: { type: 'auto' },
      },
      testAttempt(),
    );
    expect(body).toEqual({
      systemInstruction: { parts: [{ text: 'You are terse.' }] },
      contents: [
        { role: 'user', parts: [{ text: 'Weather in Paris and Rome?' }] },
        {
          role: 'model',
          parts: [
            { text: 'Checking.' },
            { functionCall: { name: 'weather', args: { city: 'Paris' } }, thoughtSignature: 'skip_thought_signature_validator' },
            { functionCall: { name: 'weather', args: { city: 'Rome' } } },
          ],
        },
        {
          role: 'user',
          parts: [
            { functionResponse: { name: 'weather', response: { temp: 21 } } },
            { functionResponse: { name: 'weather', response: { content: 'sunny, 25 degrees' } } },
            { text: 'And tomorrow?' },
          ],
        },
      ],
      tools: [
        {
          functionDeclarations: [
            {
              name: 'weather',
              description: 'Weather by city',
              parametersJsonSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
            },
          ],
        },
      ],
      toolConfig: { functionCallingConfig: { mode: 'AUTO' } },
    });
  });

  it('uses the result name when given and wraps errors', () => {
    const body = toGeminiRequest(
      {
        ...base,
        messages: [
          { role: 'tool', content: [{ type: 'tool_result', toolCallId: 'x', name: 'lookup', content: [{ type: 'text', text: 'not found' }], isError: true }] },
        ],
      },
      testAttempt(),
    );
    expect(body.contents).toEqual([{ role: 'user', parts: [{ functionResponse: { name: 'lookup', response: { error: 'not found' } } }] }]);
  });

  it('rejects a tool result that answers no known call and has no name', () => {
    let error: unknown;
    try {
      toGeminiRequest({ ...base, messages: [{ role: 'tool', content: [{ type: 'tool_result', toolCallId: 'ghost', content: 'x' }] }] }, testAttempt());
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(GatewayError);
    expect((error as GatewayError).kind).toBe('invalid_request');
  });

  it('renders media: base64 and data URLs inline, other URLs as file data, text documents as text', () => {
    const body = toGeminiRequest(
      {
        ...base,
        messages: [
          {
            role: 'user',
            content: [
              { type: 'image', source: { kind: 'base64', mediaType: 'image/png', data: 'iVBOR' } },
              { type: 'image', source: { kind: 'url', url: 'data:image/jpeg;base64,/9j/4AAQ' } },
              { type: 'image', source: { kind: 'url', url: 'https://example.com/cat.webp?size=big' } },
              { type: 'document', source: { kind: 'base64', mediaType: 'application/pdf', data: 'JVBERi0=' } },
              { type: 'document', source: { kind: 'url', url: 'https://example.com/report' } },
              { type: 'document', source: { kind: 'text', text: 'Plain notes.' } },
            ],
          },
        ],
      },
      testAttempt(),
    );
    expect(body.contents[0].parts).toEqual([
      { inlineData: { mimeType: 'image/png', data: 'iVBOR' } },
      { inlineData: { mimeType: 'image/jpeg', data: '/9j/4AAQ' } },
      { fileData: { mimeType: 'image/webp', fileUri: 'https://example.com/cat.webp?size=big' } },
      { inlineData: { mimeType: 'application/pdf', data: 'JVBERi0=' } },
      { fileData: { mimeType: 'application/pdf', fileUri: 'https://example.com/report' } },
      { text: 'Plain notes.' },
    ]);
  });

  it('renders base64 text documents (plain, CSV, data URLs) as text, but text images stay inline', () => {
    const csv = Buffer.from('a,b\n1,2').toString('base64');
    const body = toGeminiRequest(
      {
        ...base,
        messages: [
          {
            role: 'user',
            content: [
              { type: 'document', source: { kind: 'base64', mediaType: 'text/csv', data: csv } },
              { type: 'document', source: { kind: 'url', url: `data:text/plain;base64,${Buffer.from('hello').toString('base64')}` } },
              { type: 'image', source: { kind: 'base64', mediaType: 'image/svg+xml', data: 'PHN2Zy8+' } },
            ],
          },
        ],
      },
      testAttempt(),
    );
    expect(body.contents[0].parts).toEqual([{ text: 'a,b\n1,2' }, { text: 'hello' }, { inlineData: { mimeType: 'image/svg+xml', data: 'PHN2Zy8+' } }]);
  });

  it('maps generation options, JSON schema output and thinking', () => {
    const body = toGeminiRequest(
      {
        ...base,
        temperature: 0.2,
        topP: 0.8,
        topK: 20,
        maxTokens: 500,
        stop: ['###'],
        seed: 3,
        presencePenalty: 0.1,
        frequencyPenalty: 0.2,
        responseFormat: { type: 'json_schema', name: 'out', schema: { type: 'object', properties: { a: { type: 'string' } } } },
        thinkingBudget: 2048,
      },
      testAttempt(),
    );
    expect(body.generationConfig).toEqual({
      temperature: 0.2,
      topP: 0.8,
      topK: 20,
      maxOutputTokens: 500,
      stopSequences: ['###'],
      seed: 3,
      presencePenalty: 0.1,
      frequencyPenalty: 0.2,
      responseMimeType: 'application/json',
      responseJsonSchema: { type: 'object', properties: { a: { type: 'string' } } },
      thinkingConfig: { thinkingBudget: 2048, includeThoughts: true },
    });
    expect(toGeminiRequest({ ...base, responseFormat: { type: 'json_object' }, thinkingBudget: 0 }, testAttempt()).generationConfig).toEqual({
      responseMimeType: 'application/json',
      thinkingConfig: { thinkingBudget: 0 },
    });
  });

  it.each([
    [{ type: 'none' as const }, { mode: 'NONE' }],
    [{ type: 'required' as const }, { mode: 'ANY' }],
    [
      { type: 'tool' as const, name: 'f' },
      { mode: 'ANY', allowedFunctionNames: ['f'] },
    ],
  ])('maps tool choice %j', (toolChoice, functionCallingConfig) => {
    const body = toGeminiRequest({ ...base, tools: [{ name: 'f', parameters: { type: 'object' } }], toolChoice }, testAttempt());
    expect(body.toolConfig).toEqual({ functionCallingConfig });
  });

  it('asks the OpenAPI subset (responseSchema, parameters) of Gemini 1.x and 2.0 models and of channels configured so', () => {
    expect(usesOpenApiSchema(testAttempt('gemini-2.0-flash'))).toBe(true);
    expect(usesOpenApiSchema(testAttempt('models/gemini-1.5-pro'))).toBe(true);
    expect(usesOpenApiSchema(testAttempt('gemini-2.5-flash'))).toBe(false);
    expect(usesOpenApiSchema(testAttempt('gemini-2.5-flash', { schemaDialect: 'openapi' }))).toBe(true);
    expect(usesOpenApiSchema(testAttempt('gemini-2.0-flash', { schemaDialect: 'json-schema' }))).toBe(false);
    const attempt = testAttempt('gemini-2.0-flash');
    const body = toGeminiRequest(
      {
        ...base,
        tools: [{ name: 'f', parameters: { type: 'object', properties: { n: { type: ['integer', 'null'] } }, additionalProperties: false } }],
        responseFormat: { type: 'json_schema', schema: { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] } },
      },
      attempt,
    );
    expect(body.tools).toEqual([
      { functionDeclarations: [{ name: 'f', parameters: { type: 'OBJECT', properties: { n: { type: 'INTEGER', nullable: true } } } }] },
    ]);
    expect(body.generationConfig).toEqual({
      responseMimeType: 'application/json',
      responseSchema: { type: 'OBJECT', properties: { a: { type: 'STRING' } }, required: ['a'] },
    });
    expect(attempt.warnings).toEqual([]);
  });

  it('asks for JSON in the system instruction, with a warning, on a channel configured without structured output', () => {
    const attempt = testAttempt('gemini-2.5-flash', { structuredOutput: false });
    const schema = { type: 'object', properties: { a: { type: 'string' } } };
    const body = toGeminiRequest({ ...base, system: [{ type: 'text', text: 'Be brief.' }], responseFormat: { type: 'json_schema', schema } }, attempt);
    expect(body.generationConfig).toBeUndefined();
    expect(body.systemInstruction?.parts?.[0]).toEqual({ text: 'Be brief.' });
    expect(body.systemInstruction?.parts?.[1].text).toContain(JSON.stringify(schema));
    expect(attempt.warnings).toEqual([
      'response_format: channel gemini-test is configured without native structured output, asked for in the system prompt instead',
    ]);
  });

  it('warns of what Gemini cannot express: user, strict tools, parallel calls off, cache breakpoints', () => {
    const attempt = testAttempt();
    toGeminiRequest(
      {
        ...base,
        system: [{ type: 'text', text: 'Long context', cacheControl: { type: 'ephemeral' } }],
        user: 'u-1',
        tools: [{ name: 'f', parameters: { type: 'object' }, strict: true }],
        parallelToolCalls: false,
      },
      attempt,
    );
    expect(attempt.warnings).toEqual([
      'parallel_tool_calls: Gemini cannot turn parallel calls off, dropped',
      'tools.strict: not sent to Gemini, dropped',
      'user: not supported by Gemini, dropped',
      'cache_control: Gemini caches prompts implicitly, breakpoints dropped',
    ]);
    const quiet = testAttempt();
    toGeminiRequest({ ...base, seed: 1, presencePenalty: 0.1, frequencyPenalty: 0.1, topK: 3, parallelToolCalls: true }, quiet);
    expect(quiet.warnings).toEqual([]);
  });

  it('warns when it drops thinking another vendor signed, and sends the rest of the turn', () => {
    const attempt = testAttempt();
    const body = toGeminiRequest(
      {
        ...base,
        messages: [
          { role: 'user', content: [{ type: 'text', text: 'Hi' }] },
          {
            role: 'assistant',
            content: [
              { type: 'thinking', text: 'theirs', signature: 'anthropic-sig', origin: 'anthropic' },
              { type: 'thinking', text: 'also theirs', redacted: 'opaque', origin: 'anthropic' },
              { type: 'text', text: 'Hello' },
            ],
          },
          { role: 'user', content: [{ type: 'text', text: 'Again' }] },
        ],
      },
      attempt,
    );
    expect(body.contents).toEqual([
      { role: 'user', parts: [{ text: 'Hi' }] },
      { role: 'model', parts: [{ text: 'Hello' }] },
      { role: 'user', parts: [{ text: 'Again' }] },
    ]);
    expect(attempt.warnings).toEqual(['reasoning: thinking signed by another vendor dropped (2 from anthropic): gemini cannot verify it']);
  });

  it('gives no warning for its own thinking', () => {
    const attempt = testAttempt();
    toGeminiRequest(
      {
        ...base,
        messages: [
          { role: 'user', content: [{ type: 'text', text: 'Hi' }] },
          {
            role: 'assistant',
            content: [
              { type: 'thinking', text: 'ours', signature: 'g-sig', origin: 'gemini' },
              { type: 'text', text: 'Hello' },
            ],
          },
        ],
      },
      attempt,
    );
    expect(attempt.warnings).toEqual([]);
  });
});
