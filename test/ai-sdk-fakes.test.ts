/**
 * The Vercel AI SDK (`ai` 6 with `@ai-sdk/openai`, `@ai-sdk/anthropic`, `@ai-sdk/google` 3) as
 * a real client of the gateway, whose channels reach the fake OpenAI, Anthropic and Gemini
 * upstreams: every provider package against every upstream dialect (pass-through for the
 * same dialect, translation for the others). Text, streams, tools and a tool loop, structured
 * output in each upstream's native form, embeddings, and the gateway's warnings header. The chat
 * tests mark the features they check in this file's rows of docs/compatibility.md (section
 * `sdks-ai-sdk-providers`), checked by the last test.
 */
import { embed, embedMany, generateObject, generateText, Output, stepCountIs, streamText, tool } from 'ai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeEmbeddingValues } from './fakes/fake-embedding-values.js';
import { fakeGeminiEmbeddingSeed } from './fakes/fake-gemini-embeddings.js';
import { FAKE_GEMINI_KEY } from './fakes/fake-gemini-upstream.js';
import { fakeOpenAIEmbeddingSeed } from './fakes/fake-openai-embeddings.js';
import { FAKE_OPENAI_API_KEY } from './fakes/fake-openai-upstream.js';
import { anthropicUpChannel, type FakeUpstreams, geminiUpChannel, openaiUpChannel, startFakeUpstreams } from './helpers/fake-channels.js';
import { type AiSdkClients, type AiSdkProviderName, aiSdkClients, headerOf, recipeSchema, weatherInput } from './helpers/ai-sdk-clients.js';
import { clientVersion, type MatrixCase, SdkMatrix } from './helpers/sdk-matrix.js';
import { startGateway, type RunningGateway } from './helpers/start-gateway.js';

type Json = Record<string, unknown>;

const matrix = new SdkMatrix('sdks-ai-sdk-providers');

let fakes: FakeUpstreams;
let gw: RunningGateway;
let clients: AiSdkClients;

beforeAll(async () => {
  fakes = await startFakeUpstreams();
  gw = await startGateway({
    channels: [
      openaiUpChannel(fakes.openai),
      anthropicUpChannel(fakes.anthropic),
      geminiUpChannel(fakes.gemini),
      { name: 'openai-embed', provider: 'openai', baseUrl: fakes.openai.url, apiKey: FAKE_OPENAI_API_KEY, models: ['text-embedding-3-small'] },
      { name: 'gemini-embed', provider: 'gemini', baseUrl: fakes.gemini.url, apiKey: FAKE_GEMINI_KEY, models: ['text-embedding-004'] },
    ],
  });
  clients = aiSdkClients(gw.url, gw.key);
});
afterAll(async () => {
  await gw.close();
  await fakes.close();
});

type UpstreamName = 'openai' | 'anthropic' | 'gemini';

/** What each fake upstream answers (see test/fakes/), and what it was last sent. */
const UPSTREAMS = {
  openai: {
    model: 'textmodel-b-4o-mini',
    channel: 'openai-up',
    text: (prompt: string) => `You said: ${prompt}`,
    args: { city: 'fake-city', unit: 'celsius', days: 42 },
    last: () => fakes.openai.requests.at(-1)!.body as Json,
  },
  anthropic: {
    model: 'textmodel-a-haiku-4-5-20251001',
    channel: 'anthropic-up',
    text: (prompt: string) => `Hello from the fake Anthropic upstream. You said: ${prompt}`,
    args: { city: 'example', unit: 'celsius', days: 1 },
    last: () => fakes.anthropic.requests.at(-1)!.body as Json,
  },
  gemini: {
    model: 'textmodel-c-2.5-flash',
    channel: 'gemini-up',
    text: (prompt: string) => `Fake Gemini says: ${prompt}`,
    args: { city: 'example', unit: 'celsius', days: 1 },
    last: () => fakes.gemini.requests.at(-1)!.body as Json,
  },
} as const;

const DIALECT: Record<AiSdkProviderName, UpstreamName> = { openai: 'openai', anthropic: 'anthropic', google: 'gemini' };

const PROVIDER_PACKAGE: Record<AiSdkProviderName, string> = { openai: '@ai-sdk/openai', anthropic: '@ai-sdk/anthropic', google: '@ai-sdk/google' };
const PROVIDER_SURFACE: Record<AiSdkProviderName, string> = {
  openai: 'OpenAI Chat Completions',
  anthropic: 'Anthropic Messages',
  google: 'Gemini generateContent',
};
const UPSTREAM_LABEL: Record<UpstreamName, string> = { openai: 'OpenAI', anthropic: 'Anthropic', gemini: 'Gemini' };

function matrixRow(provider: AiSdkProviderName, upstream: UpstreamName): MatrixCase {
  return { client: clientVersion('ai', PROVIDER_PACKAGE[provider]), surface: PROVIDER_SURFACE[provider], upstream: UPSTREAM_LABEL[upstream] };
}

/** Whether the last request an upstream received carries the tool's answer in its own form. */
function sentToolResult(upstream: UpstreamName, body: Json): boolean {
  const json = JSON.stringify(body);
  if (upstream === 'openai') return (body.messages as Json[]).some((m) => m.role === 'tool' && JSON.stringify(m.content).includes('21'));
  if (upstream === 'anthropic') return json.includes('"type":"tool_result"') && json.includes('21');
  return json.includes('"functionResponse"') && json.includes('21');
}

/** Whether the upstream was asked for JSON of the schema in its native structured-output form. */
function sentNativeStructuredRequest(upstream: UpstreamName, body: Json): boolean {
  const courses = ['starter', 'main', 'dessert'];
  const hasSchema = (schema: unknown) => JSON.stringify(schema ?? null).includes(JSON.stringify(courses));
  if (upstream === 'openai') {
    const format = body.response_format as { type?: string; json_schema?: { schema?: unknown } } | undefined;
    return format?.type === 'json_schema' && hasSchema(format.json_schema?.schema);
  }
  if (upstream === 'anthropic') {
    const format = (body.output_config as { format?: { type?: string; schema?: unknown } } | undefined)?.format;
    return format?.type === 'json_schema' && hasSchema(format.schema);
  }
  const config = (body.generationConfig ?? body.generation_config) as Json | undefined;
  return config?.responseMimeType === 'application/json' && hasSchema(config.responseJsonSchema ?? config.responseSchema);
}

function weatherTool(calls: unknown[]) {
  return tool({
    description: 'Current weather for a city',
    inputSchema: weatherInput,
    execute: async (input) => {
      calls.push(input);
      return { temperature: 21, unit: input.unit };
    },
  });
}

const providers: AiSdkProviderName[] = ['openai', 'anthropic', 'google'];
const upstreams = Object.keys(UPSTREAMS) as UpstreamName[];
const cases = providers.flatMap((provider) => upstreams.map((upstream) => ({ provider, upstream })));

describe.each(cases)('@ai-sdk/$provider → $upstream upstream', ({ provider, upstream }) => {
  const up = UPSTREAMS[upstream];
  const route = DIALECT[provider] === upstream ? 'passthrough' : 'translated';
  const chat = () => clients.chat(provider, up.model);
  /** @ai-sdk/anthropic does not know the gateway's model ids: an explicit limit spares its own warning. */
  const settings = { maxRetries: 0, maxOutputTokens: 400 } as const;
  const row = matrixRow(provider, upstream);

  it('generateText answers the upstream text, finish reason, usage and route', async () => {
    matrix.covers(row, 'plain');
    const prompt = `tell me about ${provider} and ${upstream}`;
    const result = await generateText({ model: chat(), prompt, ...settings });
    expect(result.text).toBe(up.text(prompt));
    expect(result.finishReason).toBe('stop');
    expect(result.usage.inputTokens).toBeGreaterThan(0);
    expect(result.usage.outputTokens).toBeGreaterThan(0);
    expect(headerOf(result.response.headers, 'x-gengate-channel')).toBe(up.channel);
    expect(headerOf(result.response.headers, 'x-gengate-route')).toBe(route);
  });

  it('streamText assembles the upstream text, with finish reason and usage', async () => {
    matrix.covers(row, 'stream');
    const prompt = `stream about ${provider} and ${upstream}`;
    const errors: unknown[] = [];
    const result = streamText({ model: chat(), prompt, ...settings, onError: ({ error }) => void errors.push(error) });
    let text = '';
    for await (const delta of result.textStream) text += delta;
    expect(errors).toEqual([]);
    expect(text).toBe(up.text(prompt));
    expect(await result.finishReason).toBe('stop');
    const usage = await result.usage;
    expect(usage.inputTokens).toBeGreaterThan(0);
    expect(usage.outputTokens).toBeGreaterThan(0);
    expect(headerOf((await result.response).headers, 'x-gengate-route')).toBe(route);
  });

  it('a required tool runs with the arguments the upstream produced, plain and streamed', async () => {
    matrix.covers(row, 'tools', 'stream');
    const calls: unknown[] = [];
    const generated = await generateText({
      model: chat(),
      prompt: 'weather in Paris?',
      tools: { get_weather: weatherTool(calls) },
      toolChoice: 'required',
      ...settings,
    });
    expect(generated.finishReason).toBe('tool-calls');
    expect(generated.toolResults.map((r) => r.output)).toEqual([{ temperature: 21, unit: 'celsius' }]);

    const streamed = streamText({
      model: chat(),
      prompt: 'weather in Paris?',
      tools: { get_weather: weatherTool(calls) },
      toolChoice: 'required',
      ...settings,
    });
    await streamed.consumeStream();
    expect(await streamed.finishReason).toBe('tool-calls');
    expect(calls).toEqual([up.args, up.args]);
  });

  it('a two-step tool loop (stopWhen: stepCountIs(2)) sends the tool result upstream and ends with its text', async () => {
    matrix.covers(row, 'tools');
    const calls: unknown[] = [];
    const result = await generateText({
      model: chat(),
      prompt: 'Use get_weather for Paris, then tell me what to wear.',
      tools: { get_weather: weatherTool(calls) },
      stopWhen: stepCountIs(2),
      ...settings,
    });
    expect(result.steps).toHaveLength(2);
    expect(result.steps[0].finishReason).toBe('tool-calls');
    expect(calls).toEqual([up.args]);
    expect(sentToolResult(upstream, up.last())).toBe(true);
    expect(result.steps[1].finishReason).toBe('stop');
    expect(result.text.length).toBeGreaterThan(0);
  });

  // Structured output: the client's native request must reach the upstream in the upstream's
  // native form, and the answer must be an object of the schema.
  it('generateObject answers a schema-valid object; the upstream was asked natively', async () => {
    matrix.covers(row, 'structured output');
    const result = await generateObject({
      model: chat(),
      schema: recipeSchema,
      prompt: 'A vegetarian lasagna recipe.',
      // @ai-sdk/anthropic uses a forced "json" tool for model ids it does not know; ask for
      // its native structured output (`output_config.format`), as it does for Claude models.
      providerOptions: { anthropic: { structuredOutputMode: 'outputFormat' } },
      ...settings,
    });
    expect(recipeSchema.safeParse(result.object).success).toBe(true);
    expect(result.finishReason).toBe('stop');
    expect(sentNativeStructuredRequest(upstream, up.last())).toBe(true);
  });

  it('streamText with Output.object streams partial objects and ends with a schema-valid one', async () => {
    matrix.covers(row, 'structured output', 'stream');
    const errors: unknown[] = [];
    const result = streamText({
      model: chat(),
      output: Output.object({ schema: recipeSchema }),
      prompt: 'A dessert recipe.',
      providerOptions: { anthropic: { structuredOutputMode: 'outputFormat' } },
      onError: ({ error }) => void errors.push(error),
      ...settings,
    });
    let partials = 0;
    for await (const _ of result.partialOutputStream) partials++;
    expect(errors).toEqual([]);
    expect(partials).toBeGreaterThan(0);
    expect(recipeSchema.safeParse(await result.output).success).toBe(true);
    expect(sentNativeStructuredRequest(upstream, up.last())).toBe(true);
  });
});

describe('@ai-sdk/anthropic structured output in its default mode for unknown model ids (a forced "json" tool)', () => {
  it.each(upstreams)('generateObject through the %s upstream answers the tool arguments as the object', async (upstream) => {
    matrix.covers(matrixRow('anthropic', upstream), 'structured output');
    const up = UPSTREAMS[upstream];
    const result = await generateObject({
      model: clients.chat('anthropic', up.model),
      schema: recipeSchema,
      prompt: 'A recipe.',
      maxRetries: 0,
      maxOutputTokens: 400,
    });
    expect(recipeSchema.safeParse(result.object).success).toBe(true);
  });
});

describe('AI SDK embeddings through the fakes', () => {
  const openaiVector = (text: string) => fakeEmbeddingValues(fakeOpenAIEmbeddingSeed('text-embedding-3-small', text), 1536);
  const geminiVector = (text: string) => fakeEmbeddingValues(fakeGeminiEmbeddingSeed('text-embedding-004', text), 768);
  const embeddingCases = [
    { provider: 'openai', model: 'text-embedding-3-small', vector: openaiVector, channel: 'openai-embed' },
    { provider: 'openai', model: 'text-embedding-004', vector: geminiVector, channel: 'gemini-embed' },
    { provider: 'google', model: 'text-embedding-004', vector: geminiVector, channel: 'gemini-embed' },
    { provider: 'google', model: 'text-embedding-3-small', vector: openaiVector, channel: 'openai-embed' },
  ] as const;

  it.each(embeddingCases)('@ai-sdk/$provider embed and embedMany with $model: the upstream vectors', async ({ provider, model, vector, channel }) => {
    const single = await embed({ model: clients.embedding(provider, model), value: 'sunny day at the beach', maxRetries: 0 });
    expect(single.embedding).toEqual(vector('sunny day at the beach'));
    expect(headerOf(single.response?.headers, 'x-gengate-channel')).toBe(channel);

    const texts = ['sunny day at the beach', 'rainy night in the city', 'x'];
    const many = await embedMany({ model: clients.embedding(provider, model), values: texts, maxRetries: 0 });
    expect(many.embeddings).toEqual(texts.map((text) => vector(text)));
  });
});

describe('warnings about dropped settings', () => {
  // Anthropic has no seed: a translated request carrying one must say the seed was dropped.
  it.each(['openai', 'google'] as const)('@ai-sdk/%s with a seed to an Anthropic model: x-gengate-warnings names it', async (provider) => {
    const result = await generateText({ model: clients.chat(provider, UPSTREAMS.anthropic.model), prompt: 'hello', seed: 7, maxRetries: 0 });
    expect(result.text).toBe(UPSTREAMS.anthropic.text('hello'));
    expect(JSON.stringify(UPSTREAMS.anthropic.last())).not.toContain('seed');
    // The AI SDK keeps its own `warnings` for what the provider package dropped; the gateway's
    // reach the application as a response header.
    expect(headerOf(result.response.headers, 'x-gengate-warnings')).toMatch(/seed/);
  });

  it('no warnings header when nothing was dropped', async () => {
    const result = await generateText({ model: clients.chat('openai', UPSTREAMS.anthropic.model), prompt: 'hello', maxRetries: 0 });
    expect(headerOf(result.response.headers, 'x-gengate-warnings')).toBeUndefined();
  });
});

describe('docs/compatibility.md', () => {
  it('holds the AI SDK providers matrix of this run', (context) => {
    matrix.checkDocument(context);
  });
});
