/**
 * Vendor quirks declared as data on the OpenAI-compatible adapter: members a vendor documents as
 * unsupported are dropped with a warning (relayed or translated) instead of failing upstream, and
 * the local-server presets reach a keyless server without an Authorization header.
 */
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeOpenAIUpstream, startFakeOpenAIUpstream } from './fakes/fake-openai-upstream.js';
import { startGateway } from './helpers/start-gateway.js';

let upstream: FakeOpenAIUpstream;
beforeAll(async () => {
  upstream = await startFakeOpenAIUpstream({ apiKey: null });
});
afterAll(() => upstream.close());

describe('documented unsupported members', () => {
  it('Cerebras: presence_penalty and logit_bias are dropped with a warning, the rest is sent', async () => {
    const gw = await startGateway({ channels: [{ name: 'cb', provider: 'cerebras', baseUrl: upstream.url, apiKey: 'k', models: ['llama-3.3-70b'] }] });
    try {
      const client = new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: gw.key, maxRetries: 0 });
      const answer = await client.chat.completions
        .create({
          model: 'llama-3.3-70b',
          presence_penalty: 0.5,
          logit_bias: { '50256': -100 },
          temperature: 0.2,
          messages: [{ role: 'user', content: 'Say hi' }],
        })
        .withResponse();
      expect(answer.data.choices[0].message.content).toBeTruthy();
      const sent = upstream.requests.at(-1)!.body!;
      expect(sent).not.toHaveProperty('presence_penalty');
      expect(sent).not.toHaveProperty('logit_bias');
      expect(sent.temperature).toBe(0.2);
      const warnings = answer.response.headers.get('x-gengate-warnings') ?? '';
      expect(warnings).toContain('presence_penalty: not supported by Cerebras; dropped');
      expect(warnings).toContain('logit_bias: not supported by Cerebras; dropped');
    } finally {
      await gw.close();
    }
  });

  it('a vendor that takes a member gets it untouched (DeepSeek keeps presence_penalty)', async () => {
    const gw = await startGateway({ channels: [{ name: 'ds', provider: 'deepseek', baseUrl: upstream.url, apiKey: 'k', models: ['deepseek-chat'] }] });
    try {
      const client = new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: gw.key, maxRetries: 0 });
      const answer = await client.chat.completions
        .create({ model: 'deepseek-chat', presence_penalty: 0.5, messages: [{ role: 'user', content: 'Say hi' }] })
        .withResponse();
      expect(upstream.requests.at(-1)!.body!.presence_penalty).toBe(0.5);
      expect(answer.response.headers.get('x-gengate-warnings')).toBeNull();
    } finally {
      await gw.close();
    }
  });
});

describe.each(['vllm', 'ollama', 'llamacpp', 'lmstudio'])('local server preset %s', (provider) => {
  it('serves chat and embeddings from a keyless server, sending no Authorization header', async () => {
    const gw = await startGateway({
      channels: [{ name: `local-${provider}`, provider, baseUrl: upstream.url, models: ['local-model', 'text-embedding-3-small'] }],
    });
    try {
      const client = new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: gw.key, maxRetries: 0 });
      const answer = await client.chat.completions
        .create({ model: 'local-model', max_tokens: 20, messages: [{ role: 'user', content: 'Say hi' }] })
        .withResponse();
      expect(answer.response.headers.get('x-gengate-provider')).toBe(provider);
      const sent = upstream.requests.at(-1)!;
      expect(sent.headers.authorization).toBeUndefined();
      expect(sent.body?.max_tokens).toBe(20);
      const embedded = await client.embeddings.create({ model: 'text-embedding-3-small', input: 'one' });
      expect(embedded.data).toHaveLength(1);
    } finally {
      await gw.close();
    }
  });
});
