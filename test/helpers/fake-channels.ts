/**
 * The three faithful fake upstreams (OpenAI, Anthropic, Gemini) the end-to-end tests route to,
 * and the gateway channel each test writes for them: `openai-up` serving `textmodel-b-*` as
 * `gpt-*`, `anthropic-up` serving `textmodel-a-*` as `claude-*`, `gemini-up` serving
 * `textmodel-c-*` as `gemini-*`, each with its fake's key. Overrides replace whole fields.
 */
import { FAKE_ANTHROPIC_KEY, startFakeAnthropicUpstream, type FakeAnthropicUpstream } from '../fakes/fake-anthropic-upstream.js';
import { FAKE_GEMINI_KEY, startFakeGeminiUpstream, type FakeGeminiUpstream } from '../fakes/fake-gemini-upstream.js';
import { FAKE_OPENAI_API_KEY, startFakeOpenAIUpstream, type FakeOpenAIUpstream } from '../fakes/fake-openai-upstream.js';
import type { ChannelSpec } from './start-gateway.js';

export interface FakeUpstreams {
  openai: FakeOpenAIUpstream;
  anthropic: FakeAnthropicUpstream;
  gemini: FakeGeminiUpstream;
  /** Closes all three. */
  close(): Promise<void>;
}

/** Starts the three fakes side by side, each with its defaults. */
export async function startFakeUpstreams(): Promise<FakeUpstreams> {
  const [openai, anthropic, gemini] = await Promise.all([startFakeOpenAIUpstream(), startFakeAnthropicUpstream(), startFakeGeminiUpstream()]);
  return {
    openai,
    anthropic,
    gemini,
    close: async () => {
      await Promise.all([openai.close(), anthropic.close(), gemini.close()]);
    },
  };
}

/**
 * `openai-up`: the fake OpenAI upstream, `textmodel-b-*` rewritten to `gpt-*`. The fake serves
 * Chat Completions only, so the channel says it has no Responses API (`responsesApi: false`):
 * Responses requests reach it translated. The Responses fake has its own channel.
 */
export function openaiUpChannel(upstream: { url: string }, overrides: Partial<ChannelSpec> = {}): ChannelSpec {
  return {
    name: 'openai-up',
    provider: 'openai',
    baseUrl: upstream.url,
    apiKey: FAKE_OPENAI_API_KEY,
    models: ['textmodel-b-*'],
    modelRewrite: [{ from: 'textmodel-b-', to: 'gpt-' }],
    options: { responsesApi: false },
    ...overrides,
  };
}

/** `anthropic-up`: the fake Anthropic upstream, `textmodel-a-*` rewritten to `claude-*`. */
export function anthropicUpChannel(upstream: { url: string }, overrides: Partial<ChannelSpec> = {}): ChannelSpec {
  return {
    name: 'anthropic-up',
    provider: 'anthropic',
    baseUrl: upstream.url,
    apiKey: FAKE_ANTHROPIC_KEY,
    models: ['textmodel-a-*'],
    modelRewrite: [{ from: 'textmodel-a-', to: 'claude-' }],
    ...overrides,
  };
}

/** `gemini-up`: the fake Gemini upstream, `textmodel-c-*` rewritten to `gemini-*`. */
export function geminiUpChannel(upstream: { url: string }, overrides: Partial<ChannelSpec> = {}): ChannelSpec {
  return {
    name: 'gemini-up',
    provider: 'gemini',
    baseUrl: upstream.url,
    apiKey: FAKE_GEMINI_KEY,
    models: ['textmodel-c-*'],
    modelRewrite: [{ from: 'textmodel-c-', to: 'gemini-' }],
    ...overrides,
  };
}
