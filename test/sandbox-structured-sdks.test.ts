/**
 * Structured output end to end: the official SDKs ask the gateway (sandbox only) for JSON —
 * OpenAI `response_format`, Anthropic `output_config.format` (and the beta `output_format`),
 * Gemini `responseJsonSchema` / `responseSchema` — streamed and not; every answer parses,
 * validates against the schema, carries no marker and is flagged simulated by its header.
 */
import Anthropic from '@anthropic-ai/sdk';
import { zodOutputFormat } from '@anthropic-ai/sdk/helpers/zod';
import { GoogleGenAI, Type } from '@google/genai';
import OpenAI from 'openai';
import { zodResponseFormat } from 'openai/helpers/zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createSchemaValidator } from './helpers/json-schema-validator.js';
import { startGateway, type RunningGateway } from './helpers/start-gateway.js';

const MARKER = 'gengate sandbox — simulated';
let gw: RunningGateway;

beforeAll(async () => {
  gw = await startGateway();
});
afterAll(() => gw.close());

const Recipe = z.object({
  title: z.string().min(3).max(60),
  servings: z.int().min(1).max(12),
  difficulty: z.enum(['easy', 'medium', 'hard']),
  ingredients: z
    .array(z.object({ name: z.string(), grams: z.number().positive(), optional: z.boolean() }))
    .min(1)
    .max(6),
  source: z.union([z.object({ kind: z.literal('book'), isbn: z.string() }), z.object({ kind: z.literal('web'), url: z.url() })]),
  notes: z.string().nullable(),
});
const RECIPE = z.toJSONSchema(Recipe) as Record<string, unknown>;
const validateRecipe = createSchemaValidator().compile(RECIPE);

function expectRecipe(text: string): void {
  expect(text).not.toContain(MARKER);
  const value: unknown = JSON.parse(text);
  expect(validateRecipe(value), `${text}\n${JSON.stringify(validateRecipe.errors)}`).toBe(true);
  expect(Recipe.safeParse(value).success).toBe(true);
}

describe('openai SDK: response_format', () => {
  const client = () => new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: gw.key, maxRetries: 0 });
  const responseFormat = { type: 'json_schema' as const, json_schema: { name: 'recipe', schema: RECIPE, strict: true } };

  it('answers json_schema with valid JSON, flagged simulated by the header only', async () => {
    const { data, response } = await client()
      .chat.completions.create({ model: 'textmodel-b-4o', messages: [{ role: 'user', content: 'A recipe please' }], response_format: responseFormat })
      .withResponse();
    expect(response.headers.get('x-gengate-simulated')).toBe('true');
    expect(data.choices[0].finish_reason).toBe('stop');
    expectRecipe(data.choices[0].message.content!);
    expect(data.usage!.completion_tokens).toBeGreaterThan(10);
  });

  it('streams the same JSON in pieces', async () => {
    const request = { model: 'textmodel-b-4o', messages: [{ role: 'user' as const, content: 'A streamed recipe' }], response_format: responseFormat };
    const whole = await client().chat.completions.create(request);
    const stream = await client().chat.completions.create({ ...request, stream: true });
    const pieces: string[] = [];
    for await (const chunk of stream) if (chunk.choices[0]?.delta.content) pieces.push(chunk.choices[0].delta.content);
    expect(pieces.length).toBeGreaterThan(5);
    expect(pieces.join('')).toBe(whole.choices[0].message.content);
    expectRecipe(pieces.join(''));
  });

  it('serves chat.completions.parse with a zod 4 schema (zodResponseFormat)', async () => {
    const completion = await client().chat.completions.parse({
      model: 'textmodel-c-2.5-pro',
      messages: [{ role: 'user', content: 'Parse me a recipe' }],
      response_format: zodResponseFormat(Recipe, 'recipe'),
    });
    const parsed = completion.choices[0].message.parsed;
    expect(parsed).not.toBeNull();
    expect(Recipe.parse(parsed)).toEqual(parsed);
  });

  it('answers json_object with a JSON object', async () => {
    const completion = await client().chat.completions.create({
      model: 'textmodel-b-4o',
      messages: [{ role: 'user', content: 'Reply in JSON' }],
      response_format: { type: 'json_object' },
    });
    const value = JSON.parse(completion.choices[0].message.content!);
    expect(typeof value === 'object' && value !== null && !Array.isArray(value)).toBe(true);
  });
});

describe('anthropic SDK: output_config.format', () => {
  const client = () => new Anthropic({ baseURL: gw.url, apiKey: gw.key, maxRetries: 0 });
  const params = {
    model: 'textmodel-a-opus-4-5-20251101',
    max_tokens: 1024,
    messages: [{ role: 'user' as const, content: 'A recipe please' }],
    output_config: { format: { type: 'json_schema' as const, schema: RECIPE } },
  };

  it('answers valid JSON in the text block, flagged simulated by the header only', async () => {
    const { data, response } = await client().messages.create(params).withResponse();
    expect(response.headers.get('x-gengate-simulated')).toBe('true');
    expect(data.stop_reason).toBe('end_turn');
    expect(data.content).toHaveLength(1);
    expectRecipe((data.content[0] as Anthropic.TextBlock).text);
  });

  it('streams the same JSON', async () => {
    const whole = await client().messages.create(params);
    const stream = client().messages.stream(params);
    let deltas = 0;
    stream.on('text', () => deltas++);
    const message = await stream.finalMessage();
    expect(deltas).toBeGreaterThan(5);
    const text = (message.content[0] as Anthropic.TextBlock).text;
    expect(text).toBe((whole.content[0] as Anthropic.TextBlock).text);
    expectRecipe(text);
  });

  it('serves messages.parse with a zod 4 schema (zodOutputFormat)', async () => {
    const message = await client().messages.parse({
      model: 'textmodel-a-opus-4-5-20251101',
      max_tokens: 1024,
      messages: [{ role: 'user', content: 'Parse me a recipe' }],
      output_config: { format: zodOutputFormat(Recipe) },
    });
    expect(message.parsed_output).not.toBeNull();
    expect(Recipe.parse(message.parsed_output)).toEqual(message.parsed_output);
  });

  it('accepts the beta output_format', async () => {
    const message = await client().beta.messages.create({
      model: 'textmodel-a-opus-4-5-20251101',
      max_tokens: 1024,
      messages: [{ role: 'user', content: 'A beta recipe' }],
      output_format: { type: 'json_schema', schema: RECIPE },
      betas: ['structured-outputs-2025-11-13'],
    });
    expectRecipe((message.content[0] as Anthropic.Beta.BetaTextBlock).text);
  });

  it('answers a bad output_config with a 400 naming the field', async () => {
    const error = await client()
      .messages.create({ ...params, output_config: { format: { type: 'json_schema', schema: 'nope' as unknown as Record<string, unknown> } } })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Anthropic.BadRequestError);
    expect((error as Error).message).toContain('output_config.format.schema');
  });
});

describe('gemini SDK: responseMimeType application/json', () => {
  const ai = () => new GoogleGenAI({ apiKey: gw.key, httpOptions: { baseUrl: gw.url } });

  async function textOf(config: Record<string, unknown>, stream: boolean): Promise<{ text: string; simulated: string | undefined }> {
    const request = { model: 'textmodel-c-2.5-pro', contents: 'A recipe please', config };
    if (!stream) {
      const answer = await ai().models.generateContent(request);
      return { text: answer.text ?? '', simulated: answer.sdkHttpResponse?.headers?.['x-gengate-simulated'] };
    }
    let text = '';
    let simulated: string | undefined;
    for await (const chunk of await ai().models.generateContentStream(request)) {
      text += chunk.text ?? '';
      simulated ??= chunk.sdkHttpResponse?.headers?.['x-gengate-simulated'];
    }
    return { text, simulated };
  }

  for (const stream of [false, true]) {
    it(`answers responseJsonSchema with valid JSON${stream ? ', streamed' : ''}`, async () => {
      const { text, simulated } = await textOf({ responseMimeType: 'application/json', responseJsonSchema: RECIPE }, stream);
      expect(simulated).toBe('true');
      expectRecipe(text);
    });

    it(`answers an OpenAPI-style responseSchema (upper-case types) with valid JSON${stream ? ', streamed' : ''}`, async () => {
      const responseSchema = {
        type: Type.OBJECT,
        properties: {
          city: { type: Type.STRING },
          population: { type: Type.INTEGER, minimum: 1 },
          landmarks: { type: Type.ARRAY, items: { type: Type.OBJECT, properties: { name: { type: Type.STRING } }, required: ['name'] }, maxItems: 3 },
          climate: { type: Type.STRING, format: 'enum', enum: ['arid', 'temperate', 'polar'] },
          mayor: { type: Type.STRING, nullable: true },
        },
        required: ['city', 'population', 'landmarks', 'climate', 'mayor'],
        propertyOrdering: ['city', 'population', 'landmarks', 'climate', 'mayor'],
      };
      const { text } = await textOf({ responseMimeType: 'application/json', responseSchema }, stream);
      const value = JSON.parse(text);
      const validate = createSchemaValidator().compile({
        type: 'object',
        properties: {
          city: { type: 'string' },
          population: { type: 'integer', minimum: 1 },
          landmarks: { type: 'array', items: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] }, maxItems: 3 },
          climate: { enum: ['arid', 'temperate', 'polar'] },
          mayor: { type: ['string', 'null'] },
        },
        required: ['city', 'population', 'landmarks', 'climate', 'mayor'],
      });
      expect(validate(value), `${text}\n${JSON.stringify(validate.errors)}`).toBe(true);
    });
  }

  it('answers application/json without a schema with a JSON object', async () => {
    const { text } = await textOf({ responseMimeType: 'application/json' }, false);
    expect(text).not.toContain(MARKER);
    const value = JSON.parse(text);
    expect(typeof value === 'object' && value !== null && !Array.isArray(value)).toBe(true);
  });
});
