import { describe, expect, it } from 'vitest';
import type { ChatRequest } from '../../core/chat.js';
import { GatewayError } from '../../core/errors.js';
import { parseGeminiGenerateRequest } from './parse-generate-request.js';

function parseError(body: unknown): GatewayError {
  try {
    parseGeminiGenerateRequest(body, 'textmodel-c-2.5-flash', false);
  } catch (error) {
    if (error instanceof GatewayError) return error;
    throw error;
  }
  throw new Error('expected the body to be rejected');
}

const camelBody = {
  systemInstruction: { parts: [{ text: 'Be brief.' }] },
  contents: [
    {
      role: 'user',
      parts: [{ text: 'What is in this picture?' }, { inlineData: { mimeType: 'image/png', data: 'iVBORw0KGgo=' } }],
    },
    { role: 'model', parts: [{ functionCall: { name: 'lookup', args: { q: 'cat' } } }] },
    { role: 'user', parts: [{ functionResponse: { name: 'lookup', response: { found: true } } }] },
  ],
  tools: [
    {
      functionDeclarations: [
        {
          name: 'lookup',
          description: 'Looks things up',
          parameters: { type: 'OBJECT', properties: { q: { type: 'STRING' } }, required: ['q'] },
        },
      ],
    },
  ],
  toolConfig: { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: ['lookup'] } },
  generationConfig: {
    temperature: 0.5,
    topP: 0.9,
    topK: 40,
    candidateCount: 1,
    maxOutputTokens: 256,
    stopSequences: ['END'],
    seed: 7,
    thinkingConfig: { thinkingBudget: 1024 },
  },
  safetySettings: [{ category: 'HARM_CATEGORY_HARASSMENT', threshold: 'BLOCK_NONE' }],
};

const snakeBody = {
  system_instruction: { parts: [{ text: 'Be brief.' }] },
  contents: [
    {
      role: 'user',
      parts: [{ text: 'What is in this picture?' }, { inline_data: { mime_type: 'image/png', data: 'iVBORw0KGgo=' } }],
    },
    { role: 'model', parts: [{ function_call: { name: 'lookup', args: { q: 'cat' } } }] },
    { role: 'user', parts: [{ function_response: { name: 'lookup', response: { found: true } } }] },
  ],
  tools: [
    {
      function_declarations: [
        {
          name: 'lookup',
          description: 'Looks things up',
          parameters: { type: 'OBJECT', properties: { q: { type: 'STRING' } }, required: ['q'] },
        },
      ],
    },
  ],
  tool_config: { function_calling_config: { mode: 'ANY', allowed_function_names: ['lookup'] } },
  generation_config: {
    temperature: 0.5,
    top_p: 0.9,
    top_k: 40,
    candidate_count: 1,
    max_output_tokens: 256,
    stop_sequences: ['END'],
    seed: 7,
    thinking_config: { thinking_budget: 1024 },
  },
  safety_settings: [{ category: 'HARM_CATEGORY_HARASSMENT', threshold: 'BLOCK_NONE' }],
};

const expected: ChatRequest = {
  model: 'textmodel-c-2.5-flash',
  stream: false,
  system: [{ type: 'text', text: 'Be brief.' }],
  messages: [
    {
      role: 'user',
      content: [
        { type: 'text', text: 'What is in this picture?' },
        { type: 'image', source: { kind: 'base64', mediaType: 'image/png', data: 'iVBORw0KGgo=' } },
      ],
    },
    { role: 'assistant', content: [{ type: 'tool_call', id: 'call_1_0', name: 'lookup', arguments: '{"q":"cat"}' }] },
    { role: 'tool', content: [{ type: 'tool_result', toolCallId: 'call_1_0', name: 'lookup', content: '{"found":true}' }] },
  ],
  tools: [
    {
      name: 'lookup',
      description: 'Looks things up',
      parameters: { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] },
    },
  ],
  toolChoice: { type: 'tool', name: 'lookup' },
  temperature: 0.5,
  topP: 0.9,
  topK: 40,
  maxTokens: 256,
  stop: ['END'],
  seed: 7,
  thinkingBudget: 1024,
};

describe('parseGeminiGenerateRequest', () => {
  it('parses a camelCase request into the canonical form', () => {
    expect(parseGeminiGenerateRequest(camelBody, 'textmodel-c-2.5-flash', false)).toEqual(expected);
  });

  it('gives the same canonical request for the snake_case spelling', () => {
    expect(parseGeminiGenerateRequest(snakeBody, 'textmodel-c-2.5-flash', false)).toEqual(expected);
  });

  it('defaults the role to user and carries the stream flag', () => {
    const request = parseGeminiGenerateRequest({ contents: [{ parts: [{ text: 'hi' }] }] }, 'm', true);
    expect(request).toEqual({ model: 'm', stream: true, messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }] });
  });

  describe('function calls and responses', () => {
    it('matches responses without ids to the earliest unanswered call of the same name', () => {
      const request = parseGeminiGenerateRequest(
        {
          contents: [
            { role: 'user', parts: [{ text: 'Weather in Paris and Rome?' }] },
            {
              role: 'model',
              parts: [
                { text: 'Checking.' },
                { functionCall: { name: 'weather', args: { city: 'Paris' } } },
                { functionCall: { name: 'weather', args: { city: 'Rome' } } },
              ],
            },
            {
              role: 'user',
              parts: [{ functionResponse: { name: 'weather', response: { temp: 21 } } }, { functionResponse: { name: 'weather', response: { temp: 25 } } }],
            },
          ],
        },
        'm',
        false,
      );
      expect(request.messages.slice(1)).toEqual([
        {
          role: 'assistant',
          content: [
            { type: 'text', text: 'Checking.' },
            { type: 'tool_call', id: 'call_1_1', name: 'weather', arguments: '{"city":"Paris"}' },
            { type: 'tool_call', id: 'call_1_2', name: 'weather', arguments: '{"city":"Rome"}' },
          ],
        },
        {
          role: 'tool',
          content: [
            { type: 'tool_result', toolCallId: 'call_1_1', name: 'weather', content: '{"temp":21}' },
            { type: 'tool_result', toolCallId: 'call_1_2', name: 'weather', content: '{"temp":25}' },
          ],
        },
      ]);
    });

    it('keeps explicit ids on calls and responses', () => {
      const request = parseGeminiGenerateRequest(
        {
          contents: [
            { role: 'user', parts: [{ text: 'go' }] },
            { role: 'model', parts: [{ functionCall: { id: 'fc-1', name: 'run', args: {} } }] },
            { role: 'user', parts: [{ functionResponse: { id: 'fc-1', name: 'run', response: { ok: 1 } } }] },
          ],
        },
        'm',
        false,
      );
      expect(request.messages[1].content).toEqual([{ type: 'tool_call', id: 'fc-1', name: 'run', arguments: '{}' }]);
      expect(request.messages[2].content).toEqual([{ type: 'tool_result', toolCallId: 'fc-1', name: 'run', content: '{"ok":1}' }]);
    });

    it('splits a user turn mixing a function response and text, in order', () => {
      const request = parseGeminiGenerateRequest(
        {
          contents: [
            { role: 'model', parts: [{ functionCall: { name: 'now', args: {} } }] },
            { role: 'user', parts: [{ functionResponse: { name: 'now', response: { t: '12:00' } } }, { text: 'Thanks, and tomorrow?' }] },
          ],
        },
        'm',
        false,
      );
      expect(request.messages.map((m) => m.role)).toEqual(['assistant', 'tool', 'user']);
      expect(request.messages[1].content).toEqual([{ type: 'tool_result', toolCallId: 'call_0_0', name: 'now', content: '{"t":"12:00"}' }]);
      expect(request.messages[2].content).toEqual([{ type: 'text', text: 'Thanks, and tomorrow?' }]);
    });

    it('gives a response with no matching call its own stable id', () => {
      const request = parseGeminiGenerateRequest(
        { contents: [{ role: 'user', parts: [{ text: 'x' }, { functionResponse: { name: 'orphan', response: {} } }] }] },
        'm',
        false,
      );
      expect(request.messages[1].content).toEqual([{ type: 'tool_result', toolCallId: 'call_0_1', name: 'orphan', content: '{}' }]);
    });
  });

  it('maps thought parts of model turns to thinking with their signature', () => {
    const request = parseGeminiGenerateRequest(
      {
        contents: [
          { role: 'user', parts: [{ text: 'q' }] },
          { role: 'model', parts: [{ text: 'pondering', thought: true, thoughtSignature: 'sig==' }, { text: 'answer' }] },
        ],
      },
      'm',
      false,
    );
    expect(request.messages[1]).toEqual({
      role: 'assistant',
      content: [
        { type: 'thinking', text: 'pondering', signature: 'sig==' },
        { type: 'text', text: 'answer' },
      ],
    });
  });

  it('joins a streamed thought (one model turn per chunk, signature last) into one signed thinking part', () => {
    const request = parseGeminiGenerateRequest(
      {
        contents: [
          { role: 'user', parts: [{ text: 'q' }] },
          { role: 'model', parts: [{ text: 'I will ', thought: true }] },
          { role: 'model', parts: [{ text: 'call f.', thought: true }] },
          { role: 'model', parts: [{ text: '', thought: true, thought_signature: 'sig==' }] },
          { role: 'model', parts: [{ text: 'next', thought: true }] },
          { role: 'model', parts: [{ functionCall: { name: 'f', args: {} } }] },
        ],
      },
      'm',
      false,
    );
    expect(request.messages.slice(1)).toEqual([
      { role: 'assistant', content: [{ type: 'thinking', text: 'I will call f.', signature: 'sig==' }] },
      { role: 'assistant', content: [{ type: 'thinking', text: 'next' }] },
      { role: 'assistant', content: [{ type: 'tool_call', id: 'call_5_0', name: 'f', arguments: '{}' }] },
    ]);
  });

  it('maps PDF and plain-text inline data to documents and file data to URL sources', () => {
    const request = parseGeminiGenerateRequest(
      {
        contents: [
          {
            parts: [
              { inline_data: { mime_type: 'application/pdf', data: 'JVBERi0=' } },
              { inlineData: { mimeType: 'text/plain', data: Buffer.from('plain words').toString('base64') } },
              { fileData: { mimeType: 'image/jpeg', fileUri: 'https://example.com/cat.jpg' } },
              { file_data: { mime_type: 'application/pdf', file_uri: 'https://example.com/doc.pdf' } },
            ],
          },
        ],
      },
      'm',
      false,
    );
    expect(request.messages[0].content).toEqual([
      { type: 'document', source: { kind: 'base64', mediaType: 'application/pdf', data: 'JVBERi0=' } },
      { type: 'document', source: { kind: 'text', text: 'plain words', mediaType: 'text/plain' } },
      { type: 'image', source: { kind: 'url', url: 'https://example.com/cat.jpg', mediaType: 'image/jpeg' } },
      { type: 'document', source: { kind: 'url', url: 'https://example.com/doc.pdf', mediaType: 'application/pdf' } },
    ]);
  });

  describe('generationConfig', () => {
    const parse = (generationConfig: unknown): ChatRequest =>
      parseGeminiGenerateRequest({ contents: [{ parts: [{ text: 'x' }] }], generationConfig }, 'm', false);

    it('maps responseMimeType application/json alone to json_object', () => {
      expect(parse({ responseMimeType: 'application/json' }).responseFormat).toEqual({ type: 'json_object' });
    });

    it('converts a Gemini responseSchema to a lower-case JSON Schema', () => {
      expect(
        parse({
          response_mime_type: 'application/json',
          response_schema: {
            type: 'ARRAY',
            items: {
              type: 'OBJECT',
              properties: { recipe_name: { type: 'STRING', nullable: true }, rating: { type: 'INTEGER', format: 'int32' } },
              property_ordering: ['recipe_name', 'rating'],
            },
            max_items: 3,
          },
        }).responseFormat,
      ).toEqual({
        type: 'json_schema',
        schema: {
          type: 'array',
          items: {
            type: 'object',
            properties: { recipe_name: { type: ['string', 'null'] }, rating: { type: 'integer', format: 'int32' } },
          },
          maxItems: 3,
        },
      });
    });

    it('takes responseJsonSchema as is', () => {
      const schema = { type: 'object', properties: { a: { type: 'number' } }, additionalProperties: false };
      expect(parse({ responseMimeType: 'application/json', responseJsonSchema: schema }).responseFormat).toEqual({ type: 'json_schema', schema });
    });

    it('drops the dynamic thinking budget (-1) and keeps 0', () => {
      expect(parse({ thinkingConfig: { thinkingBudget: -1 } }).thinkingBudget).toBeUndefined();
      expect(parse({ thinkingConfig: { thinkingBudget: 0 } }).thinkingBudget).toBe(0);
    });

    it('rejects more than one candidate, naming the field', () => {
      const error = parseError({ contents: [{ parts: [{ text: 'x' }] }], generationConfig: { candidateCount: 2 } });
      expect(error.param).toBe('generationConfig.candidateCount');
      expect(error.status).toBe(400);
    });

    it('rejects a sixth stop sequence and an out-of-range temperature, as the client spelled them', () => {
      expect(parseError({ contents: [{ parts: [{ text: 'x' }] }], generation_config: { stop_sequences: ['a', 'b', 'c', 'd', 'e', 'f'] } }).param).toBe(
        'generation_config.stop_sequences',
      );
      expect(parseError({ contents: [{ parts: [{ text: 'x' }] }], generationConfig: { temperature: 2.5 } }).param).toBe('generationConfig.temperature');
    });

    it('rejects a schema without the JSON mime type', () => {
      expect(parseError({ contents: [{ parts: [{ text: 'x' }] }], generationConfig: { responseSchema: { type: 'STRING' } } }).param).toBe(
        'generationConfig.responseSchema',
      );
    });
  });

  describe('tools', () => {
    const withTools = (toolConfig: unknown): ChatRequest =>
      parseGeminiGenerateRequest(
        {
          contents: [{ parts: [{ text: 'x' }] }],
          tools: [{ functionDeclarations: [{ name: 'a', parametersJsonSchema: { type: 'object', properties: { n: { type: 'integer' } } } }, { name: 'b' }] }],
          toolConfig,
        },
        'm',
        false,
      );

    it('keeps parametersJsonSchema and gives parameterless functions an empty object schema', () => {
      expect(withTools(undefined).tools).toEqual([
        { name: 'a', parameters: { type: 'object', properties: { n: { type: 'integer' } } } },
        { name: 'b', parameters: { type: 'object', properties: {} } },
      ]);
    });

    it('maps the function calling modes', () => {
      expect(withTools({ functionCallingConfig: { mode: 'AUTO' } }).toolChoice).toEqual({ type: 'auto' });
      expect(withTools({ functionCallingConfig: { mode: 'NONE' } }).toolChoice).toEqual({ type: 'none' });
      expect(withTools({ functionCallingConfig: { mode: 'ANY' } }).toolChoice).toEqual({ type: 'required' });
      expect(withTools({ functionCallingConfig: { mode: 'ANY', allowedFunctionNames: ['a', 'b'] } }).toolChoice).toEqual({ type: 'required' });
      expect(withTools({ function_calling_config: { mode: 'ANY', allowed_function_names: ['b'] } }).toolChoice).toEqual({ type: 'tool', name: 'b' });
    });

    it('rejects an unknown mode, naming the field', () => {
      expect(parseError({ contents: [{ parts: [{ text: 'x' }] }], toolConfig: { functionCallingConfig: { mode: 'SOMETIMES' } } }).param).toBe(
        'toolConfig.functionCallingConfig.mode',
      );
    });
  });

  describe('errors name the offending field', () => {
    it.each([
      [{}, 'contents'],
      [{ contents: [] }, 'contents'],
      [{ contents: [{ role: 'assistant', parts: [{ text: 'x' }] }] }, 'contents[0].role'],
      [{ contents: [{ parts: [] }] }, 'contents[0].parts'],
      [{ contents: [{ parts: [{ text: 'a' }, { inlineData: { mimeType: 'image/png' } }] }] }, 'contents[0].parts[1].inlineData.data'],
      [{ contents: [{ parts: [{ inline_data: { data: 'AAAA' } }] }] }, 'contents[0].parts[0].inline_data.mime_type'],
      [{ contents: [{ parts: [{ text: 42 }] }] }, 'contents[0].parts[0].text'],
      [{ contents: [{ parts: [{ functionCall: { name: 'f', args: {} } }] }] }, 'contents[0].parts[0].functionCall'],
      [{ contents: [{ role: 'model', parts: [{ functionCall: { name: 'f', args: [1] } }] }] }, 'contents[0].parts[0].functionCall.args'],
      [{ contents: [{ parts: [{ functionResponse: { name: 'f' } }] }] }, 'contents[0].parts[0].functionResponse.response'],
      [{ contents: [{ parts: [{ unknownThing: 1 }] }] }, 'contents[0].parts[0]'],
      [{ contents: [{ parts: [{ text: 'x' }] }], tools: [{ functionDeclarations: [{ description: 'no name' }] }] }, 'tools[0].functionDeclarations[0].name'],
      [{ contents: [{ parts: [{ text: 'x' }] }], systemInstruction: 'plain string' }, 'systemInstruction'],
    ])('%j → %s', (body, param) => {
      const error = parseError(body);
      expect(error.kind).toBe('invalid_request');
      expect(error.param).toBe(param);
      expect(error.message.startsWith(`${param}:`)).toBe(true);
    });

    it('rejects a body that is not an object', () => {
      expect(parseError([1, 2]).kind).toBe('invalid_request');
      expect(parseError(null).status).toBe(400);
    });
  });
});
