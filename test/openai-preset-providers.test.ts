/**
 * The OpenAI-compatible named presets (`src/providers/openai/named-presets.ts`), each configured
 * the two ways a user does — `provider: <name>` in gengate.yaml, and the vendor's key variable
 * alone — and driven to a fake OpenAI-compatible upstream with the official SDKs: a pass-through
 * call (OpenAI SDK) and a translated one (Anthropic SDK), which carries the output cap in the
 * vendor's field and is refused past the vendor's documented stop-sequence limit.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config/load-config.js';
import { FAKE_OPENAI_API_KEY, startFakeOpenAIUpstream, type FakeOpenAIUpstream } from './fakes/fake-openai-upstream.js';
import { startGateway } from './helpers/start-gateway.js';
import { PROVIDER_DESCRIPTORS } from '../src/providers/registry.js';

interface PresetCase {
  provider: string;
  keyVar: string;
  baseVar: string;
  defaultBaseUrl: string;
  model: string;
  maxTokensField: 'max_tokens' | 'max_completion_tokens';
  /** The vendor's documented stop-sequence limit; none when it documents none. */
  maxStop?: number;
  upstream: string;
}

// What each vendor's API reference documents (see named-presets.ts for the sources).
const PRESETS: PresetCase[] = [
  {
    provider: 'deepseek',
    keyVar: 'DEEPSEEK_API_KEY',
    baseVar: 'DEEPSEEK_BASE_URL',
    defaultBaseUrl: 'https://api.deepseek.com',
    model: 'deepseek-chat',
    maxTokensField: 'max_tokens',
    maxStop: 16,
    upstream: 'DeepSeek',
  },
  {
    provider: 'groq',
    keyVar: 'GROQ_API_KEY',
    baseVar: 'GROQ_BASE_URL',
    defaultBaseUrl: 'https://api.groq.com/openai/v1',
    model: 'llama-3.3-70b-versatile',
    maxTokensField: 'max_completion_tokens',
    maxStop: 4,
    upstream: 'Groq',
  },
  hosted('mistral', 'https://api.mistral.ai/v1', 'mistral-large-latest', 'max_tokens', 'Mistral'),
  { ...hosted('xai', 'https://api.x.ai/v1', 'grok-4', 'max_completion_tokens', 'xAI'), maxStop: 4 },
  hosted('openrouter', 'https://openrouter.ai/api/v1', 'anthropic/claude-sonnet-4.5', 'max_tokens', 'OpenRouter'),
  hosted('together', 'https://api.together.xyz/v1', 'meta-llama/Llama-3.3-70B-Instruct-Turbo', 'max_tokens', 'Together'),
  hosted('fireworks', 'https://api.fireworks.ai/inference/v1', 'accounts/fireworks/models/llama-v3p1-70b-instruct', 'max_tokens', 'Fireworks'),
  hosted('cerebras', 'https://api.cerebras.ai/v1', 'llama-3.3-70b', 'max_completion_tokens', 'Cerebras'),
  hosted('perplexity', 'https://api.perplexity.ai', 'sonar-pro', 'max_tokens', 'Perplexity'),
];

/** A hosted vendor whose variables follow the `<NAME>_API_KEY` / `<NAME>_BASE_URL` pattern. */
function hosted(provider: string, defaultBaseUrl: string, model: string, maxTokensField: PresetCase['maxTokensField'], upstream: string): PresetCase {
  const prefix = provider.toUpperCase();
  return { provider, keyVar: `${prefix}_API_KEY`, baseVar: `${prefix}_BASE_URL`, defaultBaseUrl, model, maxTokensField, upstream };
}

let upstream: FakeOpenAIUpstream;
beforeAll(async () => {
  upstream = await startFakeOpenAIUpstream();
});
afterAll(() => upstream.close());

function yamlFile(text: string): string {
  const path = join(mkdtempSync(join(tmpdir(), 'gengate-preset-')), 'gengate.yaml');
  writeFileSync(path, text);
  return path;
}

describe.each(PRESETS)('named preset $provider', (preset) => {
  const yaml = (baseUrl: string) =>
    `channels:\n  - name: house-${preset.provider}\n    provider: ${preset.provider}\n${baseUrl}    apiKey: \${VENDOR_KEY}\n    models: ["${preset.model}"]\n`;

  it("gengate.yaml: the provider name alone gives the vendor's base URL", () => {
    const [channel] = loadConfig({ providers: PROVIDER_DESCRIPTORS, env: { VENDOR_KEY: 'k' }, configPath: yamlFile(yaml('')) }).channels;
    expect(channel).toMatchObject({ name: `house-${preset.provider}`, provider: preset.provider, baseUrl: preset.defaultBaseUrl, apiKey: 'k' });
  });

  it('its key variable alone adds a channel on the default base URL (its models driven below)', () => {
    const [channel] = loadConfig({ providers: PROVIDER_DESCRIPTORS, env: { [preset.keyVar]: 'k' } }).channels;
    expect(channel).toMatchObject({ name: `${preset.provider}-env`, provider: preset.provider, baseUrl: preset.defaultBaseUrl, apiKey: 'k' });
  });

  const configurations = [
    {
      how: 'gengate.yaml',
      load: () =>
        loadConfig({
          providers: PROVIDER_DESCRIPTORS,
          env: { VENDOR_KEY: FAKE_OPENAI_API_KEY, VENDOR_URL: upstream.url },
          configPath: yamlFile(yaml(`    baseUrl: \${VENDOR_URL}\n`)),
        }),
      channel: `house-${preset.provider}`,
    },
    {
      how: preset.keyVar,
      load: () => loadConfig({ providers: PROVIDER_DESCRIPTORS, env: { [preset.keyVar]: FAKE_OPENAI_API_KEY, [preset.baseVar]: upstream.url } }),
      channel: `${preset.provider}-env`,
    },
  ];

  it.each(configurations)('configured through $how, serves a chat call to an OpenAI-compatible upstream', async ({ load, channel }) => {
    const gw = await startGateway({ channels: load().channels });
    try {
      const openai = new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: gw.key, maxRetries: 0 });
      const relayed = await openai.chat.completions.create({ model: preset.model, messages: [{ role: 'user', content: 'Say hi' }] }).withResponse();
      expect(relayed.data.choices[0].message.content).toBeTruthy();
      expect(relayed.response.headers.get('x-gengate-provider')).toBe(preset.provider);
      expect(relayed.response.headers.get('x-gengate-channel')).toBe(channel);
      expect(relayed.response.headers.get('x-gengate-route')).toBe('passthrough');
      const sent = upstream.requests.at(-1)!;
      expect(sent.path).toBe('/v1/chat/completions');
      expect(sent.headers.authorization).toBe(`Bearer ${FAKE_OPENAI_API_KEY}`);
      expect(sent.body?.model).toBe(preset.model);

      const anthropic = new Anthropic({ baseURL: gw.url, apiKey: gw.key, maxRetries: 0 });
      const translated = await anthropic.messages.create({ model: preset.model, max_tokens: 50, messages: [{ role: 'user', content: 'Say hi' }] });
      expect(translated.content[0]).toMatchObject({ type: 'text' });
      const body = upstream.requests.at(-1)!.body!;
      expect(body[preset.maxTokensField]).toBe(50);
      expect(Object.keys(body).filter((key) => key.startsWith('max_'))).toEqual([preset.maxTokensField]);

      if (preset.maxStop === undefined) return;
      const before = upstream.requests.length;
      const tooMany = Array.from({ length: preset.maxStop + 1 }, (_, i) => `STOP${i}`);
      const refused = await anthropic.messages
        .create({ model: preset.model, max_tokens: 50, stop_sequences: tooMany, messages: [{ role: 'user', content: 'Say hi' }] })
        .catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(Anthropic.BadRequestError);
      expect((refused as InstanceType<typeof Anthropic.BadRequestError>).message).toContain(
        `(${preset.upstream}) accepts at most ${preset.maxStop} stop sequences`,
      );
      expect(upstream.requests.length).toBe(before);
    } finally {
      await gw.close();
    }
  });
});
