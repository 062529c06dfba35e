/**
 * The Vercel AI SDK's default OpenAI provider, `openai(model)` from `@ai-sdk/openai`, speaks the
 * Responses API: generateText, streamText, a two-step tool loop (whose second request, with the
 * SDK's default `store: true`, names the first step's stored output items by `item_reference`
 * without `previous_response_id`) and generateObject through the gateway's Responses surface, on
 * the sandbox and on the fake Anthropic upstream. Each test marks the feature it checks in this
 * file's rows of docs/compatibility.md (section `sdks-ai-sdk`), checked last.
 */
import { createOpenAI } from '@ai-sdk/openai';
import { generateObject, generateText, stepCountIs, streamText, tool } from 'ai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeAnthropicUpstream, type FakeAnthropicUpstream } from './fakes/fake-anthropic-upstream.js';
import { headerOf, recipeSchema, weatherInput } from './helpers/ai-sdk-clients.js';
import { anthropicUpChannel } from './helpers/fake-channels.js';
import { clientVersion, SdkMatrix } from './helpers/sdk-matrix.js';
import { startGateway, type RunningGateway } from './helpers/start-gateway.js';

const matrix = new SdkMatrix('sdks-ai-sdk');
const AI_SDK = clientVersion('ai', '@ai-sdk/openai');

let anthropic: FakeAnthropicUpstream;
let gw: RunningGateway;

beforeAll(async () => {
  anthropic = await startFakeAnthropicUpstream();
  // textmodel-a-* on the fake Anthropic; every other catalog model on the sandbox.
  gw = await startGateway({ channels: [anthropicUpChannel(anthropic)] });
});
afterAll(async () => {
  await gw?.close();
  await anthropic?.close();
});

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

const cases = [
  { where: 'the sandbox', model: 'textmodel-b-4o-mini', provider: 'sandbox', upstream: 'sandbox' },
  { where: 'the fake Anthropic upstream', model: 'textmodel-a-sonnet-4-20250514', provider: 'anthropic', upstream: 'Anthropic' },
];

describe.each(cases)('@ai-sdk/openai openai(model) (Responses) on $where', ({ model, provider, upstream }) => {
  const row = { client: AI_SDK, surface: 'OpenAI Responses', upstream };
  const responsesModel = () => createOpenAI({ baseURL: `${gw.url}/v1`, apiKey: gw.key })(model);

  it('generateText answers with usage, through /v1/responses', async () => {
    matrix.covers(row, 'plain');
    const result = await generateText({ model: responsesModel(), prompt: 'Say hello', maxRetries: 0 });
    expect(result.text.length).toBeGreaterThan(0);
    expect(result.finishReason).toBe('stop');
    expect(result.usage.inputTokens).toBeGreaterThan(0);
    expect(result.usage.outputTokens).toBeGreaterThan(0);
    expect(headerOf(result.response.headers, 'x-gengate-provider')).toBe(provider);
    expect(result.response.id).toMatch(/^resp_/);
    // Stored: the gateway knows the response the SDK got.
    const stored = await fetch(`${gw.url}/v1/responses/${result.response.id}`, { headers: { authorization: `Bearer ${gw.key}` } });
    expect(stored.status).toBe(200);
  });

  it('streamText assembles its text from the deltas and ends with stop and usage', async () => {
    matrix.covers(row, 'stream');
    const errors: unknown[] = [];
    const result = streamText({ model: responsesModel(), prompt: 'Tell me something', maxRetries: 0, onError: ({ error }) => void errors.push(error) });
    let text = '';
    for await (const delta of result.textStream) text += delta;
    expect(errors).toEqual([]);
    expect(text.length).toBeGreaterThan(0);
    expect(await result.text).toBe(text);
    expect(await result.finishReason).toBe('stop');
    expect((await result.usage).outputTokens).toBeGreaterThan(0);
  });

  it('a two-step tool loop runs the tool and ends with text', async () => {
    matrix.covers(row, 'tools', 'state');
    const calls: unknown[] = [];
    const result = await generateText({
      model: responsesModel(),
      prompt: 'Use get_weather for Paris, then tell me what to wear.',
      tools: { get_weather: weatherTool(calls) },
      stopWhen: stepCountIs(2),
      maxRetries: 0,
    });
    expect(result.steps).toHaveLength(2);
    expect(result.steps[0].finishReason).toBe('tool-calls');
    expect(calls).toHaveLength(1);
    expect(weatherInput.safeParse(calls[0]).success).toBe(true);
    expect(result.steps[1].finishReason).toBe('stop');
    expect(result.text.length).toBeGreaterThan(0);
    // The second step named the first step's stored message by reference, without previous_response_id.
    const first = result.steps[0].response.body as { output: Array<{ type: string; id: string }> };
    const second = result.steps[1].request.body as { input: Array<{ type?: string; id?: string }>; previous_response_id?: string };
    expect(second.previous_response_id).toBeUndefined();
    const references = second.input.filter((item) => item.type === 'item_reference').map((item) => item.id);
    expect(references).toEqual(first.output.filter((item) => item.type === 'message').map((item) => item.id));
    expect(references).toHaveLength(1);
  });

  it('generateObject answers an object that validates against the schema', async () => {
    matrix.covers(row, 'structured output');
    const result = await generateObject({ model: responsesModel(), schema: recipeSchema, prompt: 'A vegetarian lasagna recipe.', maxRetries: 0 });
    expect(recipeSchema.safeParse(result.object).success).toBe(true);
  });
});

describe('docs/compatibility.md', () => {
  it('holds the AI SDK Responses matrix of this run', (context) => {
    matrix.checkDocument(context);
  });
});
