/**
 * The 3 × 3 matrix: each official SDK (surface) against each upstream dialect (provider, a
 * faithful fake), streamed and not, with and without a forced tool call. Same-dialect pairs
 * must pass through untranslated; the others translate requests, answers, streams, tool calls
 * and their streamed arguments, finish reasons and usage.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAKE_ANTHROPIC_KEY, startFakeAnthropicUpstream, type FakeAnthropicUpstream } from './fakes/fake-anthropic-upstream.js';
import { FAKE_GEMINI_KEY, startFakeGeminiUpstream, type FakeGeminiUpstream } from './fakes/fake-gemini-upstream.js';
import { FAKE_OPENAI_API_KEY, startFakeOpenAIUpstream, type FakeOpenAIUpstream } from './fakes/fake-openai-upstream.js';
import { startGateway, type RunningGateway } from './helpers/start-gateway.js';
import { ASK, type SurfaceName, type Tool } from './helpers/sdk-clients.js';

let openaiUp: FakeOpenAIUpstream;
let anthropicUp: FakeAnthropicUpstream;
let geminiUp: FakeGeminiUpstream;
let gw: RunningGateway;

beforeAll(async () => {
  [openaiUp, anthropicUp, geminiUp] = await Promise.all([startFakeOpenAIUpstream(), startFakeAnthropicUpstream(), startFakeGeminiUpstream()]);
  gw = await startGateway({
    channels: [
      {
        name: 'openai-up',
        provider: 'openai',
        baseUrl: openaiUp.url,
        apiKey: FAKE_OPENAI_API_KEY,
        models: ['textmodel-b-*'],
        modelRewrite: [{ from: 'textmodel-b-', to: 'gpt-' }],
      },
      {
        name: 'anthropic-up',
        provider: 'anthropic',
        baseUrl: anthropicUp.url,
        apiKey: FAKE_ANTHROPIC_KEY,
        models: ['textmodel-a-*'],
        modelRewrite: [{ from: 'textmodel-a-', to: 'claude-' }],
      },
      {
        name: 'gemini-up',
        provider: 'gemini',
        baseUrl: geminiUp.url,
        apiKey: FAKE_GEMINI_KEY,
        models: ['textmodel-c-*'],
        modelRewrite: [{ from: 'textmodel-c-', to: 'gemini-' }],
      },
    ],
  });
});
afterAll(async () => {
  await gw.close();
  await Promise.all([openaiUp.close(), anthropicUp.close(), geminiUp.close()]);
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
    lastModel: () => openaiUp.requests.at(-1)!.body!.model,
  },
  anthropic: {
    model: 'textmodel-a-haiku-4-5-20251001',
    upstreamModel: 'claude-haiku-4-5-20251001',
    channel: 'anthropic-up',
    text: (prompt: string) => `Hello from the fake Anthropic upstream. You said: ${prompt}`,
    args: { city: 'example', unit: 'celsius' },
    lastModel: () => (anthropicUp.requests.at(-1)!.body as { model: string }).model,
  },
  gemini: {
    model: 'textmodel-c-2.5-flash',
    upstreamModel: 'gemini-2.5-flash',
    channel: 'gemini-up',
    text: (prompt: string) => `Fake Gemini says: ${prompt}`,
    args: { city: 'example', unit: 'celsius' },
    lastModel: () => /models\/([^:]+):/.exec(geminiUp.requests.at(-1)!.path)![1],
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
      expect(row.cost_usd).toBeGreaterThan(0);
    }
  });
});
