/**
 * The 3 × 3 matrix: each official SDK (surface) against each upstream dialect (provider, a
 * faithful fake), streamed and not, with and without a forced tool call, and asking for
 * structured output. Same-dialect pairs must pass through untranslated; the others translate
 * requests, answers, streams, tool calls and their streamed arguments, finish reasons, usage,
 * and structured output into the upstream's native form (checked on what the fake received,
 * the answer validated with ajv against the client's schema).
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anthropicUpChannel, type FakeUpstreams, geminiUpChannel, openaiUpChannel, startFakeUpstreams } from './helpers/fake-channels.js';
import { startGateway, type RunningGateway } from './helpers/start-gateway.js';
import { ASK, type SurfaceName, type Tool } from './helpers/sdk-clients.js';
import { ASK_STRUCTURED } from './helpers/structured-clients.js';

let fakes: FakeUpstreams;
let gw: RunningGateway;

beforeAll(async () => {
  fakes = await startFakeUpstreams();
  gw = await startGateway({
    channels: [
      openaiUpChannel(fakes.openai),
      anthropicUpChannel(fakes.anthropic),
      // Serves one model ahead of anthropic-up: a channel configured without structured output.
      anthropicUpChannel(fakes.anthropic, {
        name: 'anthropic-instruction',
        models: ['textmodel-a-opus-4-5-20251101'],
        priority: 1,
        options: { structuredOutput: false },
      }),
      geminiUpChannel(fakes.gemini),
    ],
  });
});
afterAll(async () => {
  await gw.close();
  await fakes.close();
});

const weather: Tool = {
  name: 'get_weather',
  description: 'Current weather for a city',
  parameters: {
    type: 'object',
    properties: { city: { type: 'string' }, unit: { type: 'string', enum: ['celsius', 'fahrenheit'] } },
    required: ['city', 'unit'],
  },
};

/** What each fake upstream answers (see test/fakes/), and which dialect it speaks. */
const PROVIDERS = {
  openai: {
    model: 'textmodel-b-4o-mini',
    upstreamModel: 'gpt-4o-mini',
    channel: 'openai-up',
    text: (prompt: string) => `You said: ${prompt}`,
    args: { city: 'fake-city', unit: 'celsius' },
    lastModel: () => fakes.openai.requests.at(-1)!.body!.model,
  },
  anthropic: {
    model: 'textmodel-a-haiku-4-5-20251001',
    upstreamModel: 'claude-haiku-4-5-20251001',
    channel: 'anthropic-up',
    text: (prompt: string) => `Hello from the fake Anthropic upstream. You said: ${prompt}`,
    args: { city: 'example', unit: 'celsius' },
    lastModel: () => (fakes.anthropic.requests.at(-1)!.body as { model: string }).model,
  },
  gemini: {
    model: 'textmodel-c-2.5-flash',
    upstreamModel: 'gemini-2.5-flash',
    channel: 'gemini-up',
    text: (prompt: string) => `Fake Gemini says: ${prompt}`,
    args: { city: 'example', unit: 'celsius' },
    lastModel: () => /models\/([^:]+):/.exec(fakes.gemini.requests.at(-1)!.path)![1],
  },
} as const;

const FINISH: Record<SurfaceName, { text: string; tool: string }> = {
  openai: { text: 'stop', tool: 'tool_calls' },
  anthropic: { text: 'end_turn', tool: 'tool_use' },
  gemini: { text: 'STOP', tool: 'STOP' },
};

const surfaces: SurfaceName[] = ['openai', 'anthropic', 'gemini'];
const providers = Object.keys(PROVIDERS) as Array<keyof typeof PROVIDERS>;
const cases = surfaces.flatMap((surface) => providers.flatMap((provider) => [false, true].map((stream) => ({ surface, provider, stream }))));

describe.each(cases)('$surface client → $provider upstream, stream=$stream', ({ surface, provider, stream }) => {
  const up = PROVIDERS[provider];
  const expectedRoute = surface === provider ? 'passthrough' : 'translated';

  it('answers with the upstream text, rewritten model and the right finish reason', async () => {
    const prompt = `tell me about ${surface} and ${provider}`;
    const answer = await ASK[surface](gw.url, gw.key, { model: up.model, prompt, stream });
    expect(answer.text).toBe(up.text(prompt));
    expect(answer.calls).toEqual([]);
    expect(answer.finish).toBe(FINISH[surface].text);
    expect(answer.channel).toBe(up.channel);
    expect(answer.route).toBe(expectedRoute);
    expect(up.lastModel()).toBe(up.upstreamModel);
    const numbers = Object.values(answer.usage).filter((n) => n !== undefined) as number[];
    expect(numbers.length).toBeGreaterThan(1);
    expect(numbers.some((n) => n > 0)).toBe(true);
  });

  it('calls the forced tool with the upstream arguments', async () => {
    const answer = await ASK[surface](gw.url, gw.key, { model: up.model, prompt: 'weather in Paris?', stream, tool: weather });
    expect(answer.calls).toEqual([{ name: 'get_weather', args: up.args }]);
    expect(answer.text).toBe('');
    expect(answer.finish).toBe(FINISH[surface].tool);
    expect(answer.route).toBe(expectedRoute);
  });
});

describe('usage across dialects', () => {
  // The fake OpenAI upstream reports cached tokens for prompts of 1,024 tokens or more:
  // prompt = 4 per message + one per word, cached = that rounded down to a multiple of 128.
  const prompt = Array.from({ length: 1100 }, (_, i) => `w${i}`).join(' ');
  const promptTokens = 1104;
  const cached = 1024;

  it('cached tokens from an OpenAI upstream reach an Anthropic client as cache reads', async () => {
    for (const stream of [false, true]) {
      const answer = await ASK.anthropic(gw.url, gw.key, { model: PROVIDERS.openai.model, prompt, stream });
      expect(answer.usage.cache_read_input_tokens).toBe(cached);
      expect(answer.usage.input_tokens).toBe(promptTokens - cached);
    }
  });

  it('cached tokens from an OpenAI upstream reach a Gemini client as cachedContentTokenCount', async () => {
    for (const stream of [false, true]) {
      const answer = await ASK.gemini(gw.url, gw.key, { model: PROVIDERS.openai.model, prompt, stream });
      expect(answer.usage.promptTokenCount).toBe(promptTokens);
      expect(answer.usage.cachedContentTokenCount).toBe(cached);
      expect(answer.usage.totalTokenCount).toBe(promptTokens + (answer.usage.candidatesTokenCount ?? 0));
    }
  });

  it('every call is recorded in the ledger with its tokens', async () => {
    await ASK.openai(gw.url, gw.key, { model: PROVIDERS.anthropic.model, prompt: 'count me', stream: true });
    await ASK.anthropic(gw.url, gw.key, { model: PROVIDERS.anthropic.model, prompt: 'count me too', stream: true });
    await new Promise((resolve) => setTimeout(resolve, 50));
    await gw.gateway.recorder.flush();
    const rows = await gw.gateway.usage.recent(2);
    expect(rows.map((r) => [r.surface, r.channel, r.outcome, r.stream])).toEqual([
      ['anthropic', 'anthropic-up', 'ok', 1],
      ['openai', 'anthropic-up', 'ok', 1],
    ]);
    for (const row of rows) {
      expect(row.input_tokens).toBeGreaterThan(0);
      expect(row.output_tokens).toBeGreaterThan(0);
      expect(row.cost_nusd).toBeGreaterThan(0);
    }
  });
});

/** A schema every dialect can say natively: closed objects, all properties required, a $ref, an enum, a null type. */
const REPORT_SCHEMA = {
  type: 'object',
  properties: {
    city: { type: 'string', description: 'the city asked about' },
    unit: { type: 'string', enum: ['celsius', 'fahrenheit'] },
    note: { type: ['string', 'null'] },
    readings: { type: 'array', items: { $ref: '#/$defs/reading' } },
  },
  required: ['city', 'unit', 'note', 'readings'],
  additionalProperties: false,
  $defs: {
    reading: {
      type: 'object',
      properties: { hour: { type: 'integer' }, temperature: { type: 'number' }, windy: { type: 'boolean' } },
      required: ['hour', 'temperature', 'windy'],
      additionalProperties: false,
    },
  },
};

const ajv = new Ajv2020({ strict: false });

function expectValid(text: string, schema: Record<string, unknown>): void {
  const value: unknown = JSON.parse(text);
  const validate = ajv.compile(schema);
  expect(validate(value), JSON.stringify(validate.errors)).toBe(true);
}

type Json = Record<string, unknown>;

/** The structured-output request each fake upstream last received, in its own dialect. */
const RECEIVED = {
  openai: () => fakes.openai.requests.at(-1)!.body as Json,
  anthropic: () => fakes.anthropic.requests.at(-1)!.body as Json,
  gemini: () => fakes.gemini.requests.at(-1)!.body as Json,
};

function systemText(provider: keyof typeof PROVIDERS, body: Json): string {
  if (provider === 'openai') return JSON.stringify((body.messages as Json[]).filter((m) => m.role === 'system'));
  if (provider === 'anthropic') return JSON.stringify(body.system ?? '');
  return JSON.stringify(body.systemInstruction ?? body.system_instruction ?? '');
}

describe.each(cases)('structured output: $surface client → $provider upstream, stream=$stream', ({ surface, provider, stream }) => {
  const up = PROVIDERS[provider];

  it('reaches the upstream in its native form and answers JSON valid against the schema', async () => {
    const answer = await ASK_STRUCTURED[surface](gw.url, gw.key, { model: up.model, prompt: 'weather report for Paris', stream, schema: REPORT_SCHEMA });
    expect(answer.route).toBe(surface === provider ? 'passthrough' : 'translated');
    expect(answer.channel).toBe(up.channel);
    expectValid(answer.text, REPORT_SCHEMA);

    const body = RECEIVED[provider]();
    if (provider === 'openai') {
      const format = body.response_format as { type: string; json_schema: Json };
      expect(format.type).toBe('json_schema');
      expect(format.json_schema.schema).toEqual(REPORT_SCHEMA);
      expect(format.json_schema.name).toBe(surface === 'openai' ? 'weather_report' : 'response');
    } else if (provider === 'anthropic') {
      expect(body.output_config).toEqual({ format: { type: 'json_schema', schema: REPORT_SCHEMA } });
    } else {
      const config = (body.generationConfig ?? body.generation_config) as Json;
      expect(config.responseMimeType).toBe('application/json');
      expect(config.responseJsonSchema).toEqual(REPORT_SCHEMA);
      expect(config.responseSchema).toBeUndefined();
    }
    expect(systemText(provider, body)).not.toContain('JSON Schema');
    // Nothing was dropped or approximated on the way.
    expect(answer.warnings).toBeNull();
  });
});

describe('structured output beyond the common schema', () => {
  it.each(surfaces.filter((s) => s !== 'gemini'))(
    'a Gemini 2.0 model gets the OpenAPI-subset responseSchema ($ref inlined, nullable) from a %s client',
    async (surface) => {
      for (const stream of [false, true]) {
        const answer = await ASK_STRUCTURED[surface](gw.url, gw.key, { model: 'textmodel-c-2.0-flash', prompt: 'weather', stream, schema: REPORT_SCHEMA });
        expectValid(answer.text, REPORT_SCHEMA);
        const config = (RECEIVED.gemini().generationConfig ?? {}) as Json;
        expect(config.responseJsonSchema).toBeUndefined();
        expect(config.responseSchema).toEqual({
          type: 'OBJECT',
          properties: {
            city: { type: 'STRING', description: 'the city asked about' },
            unit: { type: 'STRING', enum: ['celsius', 'fahrenheit'] },
            note: { type: 'STRING', nullable: true },
            readings: {
              type: 'ARRAY',
              items: {
                type: 'OBJECT',
                properties: { hour: { type: 'INTEGER' }, temperature: { type: 'NUMBER' }, windy: { type: 'BOOLEAN' } },
                required: ['hour', 'temperature', 'windy'],
              },
            },
          },
          required: ['city', 'unit', 'note', 'readings'],
        });
        expect(answer.warnings).toBeNull();
      }
    },
  );

  it('an Anthropic upstream gets unenforced keywords in descriptions, and the client is told in x-gengate-warnings', async () => {
    const schema = { ...REPORT_SCHEMA, properties: { ...REPORT_SCHEMA.properties, city: { type: 'string', minLength: 2, maxLength: 40 } } };
    for (const stream of [false, true]) {
      const answer = await ASK_STRUCTURED.openai(gw.url, gw.key, { model: PROVIDERS.anthropic.model, prompt: 'weather', stream, schema });
      expectValid(answer.text, schema);
      const sent = (RECEIVED.anthropic().output_config as { format: { schema: Json } }).format.schema;
      expect((sent.properties as Json).city).toEqual({ type: 'string', description: '{minLength: 2, maxLength: 40}' });
      expect(answer.warnings).toBe('response_format.schema: maxLength, minLength not enforced by Anthropic, moved into descriptions');
    }
  });

  it('a channel configured without structured output asks translated requests in the system prompt and says so', async () => {
    // An Anthropic client's request to this channel passes through untouched, output_config included.
    for (const surface of ['openai', 'gemini'] as const) {
      const answer = await ASK_STRUCTURED[surface](gw.url, gw.key, {
        model: 'textmodel-a-opus-4-5-20251101',
        prompt: 'weather',
        stream: false,
        schema: REPORT_SCHEMA,
      });
      expect(answer.channel).toBe('anthropic-instruction');
      const body = RECEIVED.anthropic();
      expect(body.output_config).toBeUndefined();
      expect(systemText('anthropic', body)).toContain('conforms to this JSON Schema');
      expect(answer.warnings).toBe(
        'response_format: channel anthropic-instruction is configured without native structured output, asked for in the system prompt instead',
      );
    }
  });
});

describe('dropped settings reach the client in x-gengate-warnings', () => {
  it.each([false, true])('an OpenAI client asking an Anthropic model with seed and penalties is told, stream=%s', async (stream) => {
    const answer = await ASK_STRUCTURED.openai(gw.url, gw.key, {
      model: PROVIDERS.anthropic.model,
      prompt: 'weather',
      stream,
      schema: REPORT_SCHEMA,
      extra: { seed: 7, frequency_penalty: 0.5, presence_penalty: 0.1 },
    });
    expect(answer.warnings).toBe(
      'seed: not supported by Anthropic, dropped; presence_penalty: not supported by Anthropic, dropped; frequency_penalty: not supported by Anthropic, dropped',
    );
    expectValid(answer.text, REPORT_SCHEMA);
  });

  it('a pass-through request is sent as it came and carries no warnings', async () => {
    const answer = await ASK_STRUCTURED.openai(gw.url, gw.key, {
      model: PROVIDERS.openai.model,
      prompt: 'weather',
      stream: false,
      schema: REPORT_SCHEMA,
      extra: { seed: 7, frequency_penalty: 0.5 },
    });
    expect(answer.route).toBe('passthrough');
    expect(answer.warnings).toBeNull();
    expect(RECEIVED.openai().seed).toBe(7);
  });
});
