/**
 * The gateway on its embedded defaults (no upstream configured): the sandbox answers every
 * spec chat model through all three official SDKs, and always says it is simulated. The SDK tests
 * mark the features they check in this file's rows of docs/compatibility.md (section
 * `sdks-sandbox`), checked by the last test.
 */
import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientVersion, type MatrixCase, SdkMatrix } from './helpers/sdk-matrix.js';
import { startGateway, type RunningGateway } from './helpers/start-gateway.js';

const MARKER = '[gengate sandbox — simulated response, no model was called]';
let gw: RunningGateway;
const matrix = new SdkMatrix('sdks-sandbox');
const OPENAI_ROW: MatrixCase = { client: clientVersion('openai'), surface: 'OpenAI Chat Completions', upstream: 'sandbox' };
const ANTHROPIC_ROW: MatrixCase = { client: clientVersion('@anthropic-ai/sdk'), surface: 'Anthropic Messages', upstream: 'sandbox' };
const GEMINI_ROW: MatrixCase = { client: clientVersion('@google/genai'), surface: 'Gemini generateContent', upstream: 'sandbox' };

beforeAll(async () => {
  gw = await startGateway();
});
afterAll(() => gw.close());

const weatherTool = {
  name: 'get_weather',
  description: 'Current weather for a city',
  parameters: {
    type: 'object',
    properties: {
      city: { type: 'string', minLength: 2 },
      unit: { type: 'string', enum: ['celsius', 'fahrenheit'] },
      days: { type: 'integer', minimum: 1, maximum: 7 },
    },
    required: ['city', 'unit', 'days'],
  },
};

function checkWeatherArgs(args: Record<string, unknown>): void {
  expect(typeof args.city).toBe('string');
  expect((args.city as string).length).toBeGreaterThanOrEqual(2);
  expect(['celsius', 'fahrenheit']).toContain(args.unit);
  expect(Number.isInteger(args.days)).toBe(true);
  expect(args.days as number).toBeGreaterThanOrEqual(1);
  expect(args.days as number).toBeLessThanOrEqual(7);
}

describe('openai SDK against the sandbox', () => {
  const client = () => new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: gw.key });

  it('answers, marks the answer simulated, and counts tokens', async () => {
    matrix.covers(OPENAI_ROW, 'plain');
    const { data, response } = await client()
      .chat.completions.create({ model: 'textmodel-a-opus-4-5-20251101', messages: [{ role: 'user', content: 'Say hello' }] })
      .withResponse();
    expect(response.headers.get('x-gengate-simulated')).toBe('true');
    expect(response.headers.get('x-gengate-provider')).toBe('sandbox');
    expect(data.object).toBe('chat.completion');
    expect(data.model).toBe('textmodel-a-opus-4-5-20251101');
    expect(data.choices[0].message.content!.startsWith(MARKER)).toBe(true);
    expect(data.choices[0].finish_reason).toBe('stop');
    expect(data.usage!.prompt_tokens).toBeGreaterThan(0);
    expect(data.usage!.total_tokens).toBe(data.usage!.prompt_tokens + data.usage!.completion_tokens);
  });

  it('streams the same text as the non-stream answer, with usage when asked', async () => {
    matrix.covers(OPENAI_ROW, 'stream');
    const request = { model: 'textmodel-b-4o', messages: [{ role: 'user' as const, content: 'Tell me something' }] };
    const whole = await client().chat.completions.create(request);
    const stream = await client().chat.completions.create({ ...request, stream: true, stream_options: { include_usage: true } });
    let text = '';
    let usage: OpenAI.CompletionUsage | undefined | null;
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta.content ?? '';
      if (chunk.usage) usage = chunk.usage;
    }
    expect(text).toBe(whole.choices[0].message.content);
    expect(usage).toEqual(whole.usage);
  });

  it('calls a required tool with arguments that satisfy its schema', async () => {
    matrix.covers(OPENAI_ROW, 'tools');
    const completion = await client().chat.completions.create({
      model: 'textmodel-c-2.5-pro',
      messages: [{ role: 'user', content: 'What is it like outside?' }],
      tools: [{ type: 'function', function: weatherTool }],
      tool_choice: 'required',
    });
    const choice = completion.choices[0];
    expect(choice.finish_reason).toBe('tool_calls');
    // The answer says the call is simulated, so no one takes it for a model's choice.
    expect(choice.message.content).toBe("[sandbox] simulated a call to get_weather (arguments invented from the tool's schema; no model chose it)");
    const call = choice.message.tool_calls![0] as OpenAI.ChatCompletionMessageFunctionToolCall;
    expect(call.function.name).toBe('get_weather');
    checkWeatherArgs(JSON.parse(call.function.arguments));
  });
});

describe('anthropic SDK against the sandbox', () => {
  it('messages.create and messages.stream with a tool', async () => {
    matrix.covers(ANTHROPIC_ROW, 'plain', 'stream', 'tools');
    const client = new Anthropic({ baseURL: gw.url, apiKey: gw.key });
    const message = await client.messages.create({ model: 'textmodel-b-4o-mini', max_tokens: 200, messages: [{ role: 'user', content: 'Hi' }] });
    expect(message.type).toBe('message');
    expect(message.content[0].type).toBe('text');
    expect((message.content[0] as Anthropic.TextBlock).text.startsWith(MARKER)).toBe(true);
    expect(message.stop_reason).toBe('end_turn');

    const stream = client.messages.stream({
      model: 'textmodel-a-haiku-4-5-20251001',
      max_tokens: 300,
      messages: [{ role: 'user', content: 'Use get_weather please' }],
      tools: [{ name: weatherTool.name, description: weatherTool.description, input_schema: weatherTool.parameters as Anthropic.Tool.InputSchema }],
      tool_choice: { type: 'tool', name: 'get_weather' },
    });
    const final = await stream.finalMessage();
    expect(final.stop_reason).toBe('tool_use');
    const toolUse = final.content.find((block) => block.type === 'tool_use') as Anthropic.ToolUseBlock;
    expect(toolUse.name).toBe('get_weather');
    checkWeatherArgs(toolUse.input as Record<string, unknown>);
  });
});

describe('google genai SDK against the sandbox', () => {
  it('generateContent and generateContentStream', async () => {
    matrix.covers(GEMINI_ROW, 'plain', 'stream');
    const ai = new GoogleGenAI({ apiKey: gw.key, httpOptions: { baseUrl: gw.url } });
    const result = await ai.models.generateContent({ model: 'textmodel-c-2.5-flash', contents: 'Hello there' });
    expect(result.text!.startsWith(MARKER)).toBe(true);
    expect(result.candidates![0].finishReason).toBe('STOP');
    expect(result.usageMetadata!.promptTokenCount).toBeGreaterThan(0);

    let streamed = '';
    for await (const chunk of await ai.models.generateContentStream({ model: 'textmodel-c-2.5-flash', contents: 'Hello there' })) {
      streamed += chunk.text ?? '';
    }
    expect(streamed).toBe(result.text);
  });

  it('calls a function with schema-valid arguments', async () => {
    matrix.covers(GEMINI_ROW, 'tools');
    const ai = new GoogleGenAI({ apiKey: gw.key, httpOptions: { baseUrl: gw.url } });
    const result = await ai.models.generateContent({
      model: 'textmodel-a-sonnet-4-20250514',
      contents: 'What is the weather?',
      config: {
        tools: [{ functionDeclarations: [{ name: weatherTool.name, description: weatherTool.description, parametersJsonSchema: weatherTool.parameters }] }],
        toolConfig: { functionCallingConfig: { mode: 'ANY' as never } },
      },
    });
    const call = result.functionCalls![0];
    expect(call.name).toBe('get_weather');
    checkWeatherArgs(call.args as Record<string, unknown>);
  });
});

describe('model lists', () => {
  it('list the spec models in each dialect', async () => {
    const openai = new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: gw.key });
    const ids = [];
    for await (const model of openai.models.list()) ids.push(model.id);
    expect(ids).toEqual(
      expect.arrayContaining([
        'textmodel-a-sonnet-4-20250514',
        'textmodel-b-4o',
        'textmodel-c-3-pro-preview',
        'text-embedding-004',
        'imagegen1-pro',
        'imagegen2-v3',
        'black-forest-labs/flux-schnell',
        'imgtask-imagine',
        'videogen1-video-01',
        'videogen3-ray-2',
      ]),
    );
    // Every id of the catalog, as counted in its files: 112 in models.yaml (the spec's ids, the
    // first-party vendors' chat, embedding, image and video models, imagegen1's owner/name ids and
    // the image-task kinds), 33 named-vendor models (vendors.yaml), 86 Bedrock and Vertex AI ids (clouds.yaml).
    expect(ids).toHaveLength(112 + 33 + 86);

    const gemini = (await (await fetch(`${gw.url}/v1beta/models?key=${gw.key}`)).json()) as { models: Array<{ name: string }> };
    expect(gemini.models.map((m) => m.name)).toContain('models/textmodel-c-2.5-flash');

    const anthropic = new Anthropic({ baseURL: gw.url, apiKey: gw.key });
    const page = await anthropic.models.list();
    expect(page.data.map((m) => m.id)).toContain('textmodel-a-opus-4-5-20251101');
  });

  it('a restricted key sees only its models', async () => {
    const key = await gw.createKey({ name: 'r', models: ['textmodel-a-*'] });
    const res = (await (await fetch(`${gw.url}/v1/models`, { headers: { authorization: `Bearer ${key}` } })).json()) as { data: Array<{ id: string }> };
    expect(res.data.map((m) => m.id).sort()).toEqual(['textmodel-a-haiku-4-5-20251001', 'textmodel-a-opus-4-5-20251101', 'textmodel-a-sonnet-4-20250514']);
  });
});

describe('docs/compatibility.md', () => {
  it('holds the sandbox SDK matrix of this run', (context) => {
    matrix.checkDocument(context);
  });
});
