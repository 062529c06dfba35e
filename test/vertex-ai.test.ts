/**
 * Google Vertex AI channels driven by the official SDKs against a fake Vertex endpoint and token
 * endpoint (fakes/fake-vertex-ai.ts): a service-account key exchanged for an access token at the
 * key file's own `token_uri` (the JWT's signature checked by the fake), cached across calls;
 * Gemini on Vertex (`vertex-ai`) and Claude on Vertex (`vertex-anthropic`) from their own dialect
 * and across dialects, streamed, with tools, embeddings, usage recorded, and a key the token
 * endpoint refuses failing the channel over.
 */
import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { clearGoogleAccessTokens } from '../src/providers/vertex-ai/google-access-token.js';
import { type FakeAnthropicUpstream, startFakeAnthropicUpstream } from './fakes/fake-anthropic-upstream.js';
import { type FakeGeminiUpstream, startFakeGeminiUpstream } from './fakes/fake-gemini-upstream.js';
import { type FakeVertexAI, startFakeVertexAI } from './fakes/fake-vertex-ai.js';
import { startGateway } from './helpers/start-gateway.js';

let gemini: FakeGeminiUpstream;
let anthropic: FakeAnthropicUpstream;
let vertex: FakeVertexAI;

beforeAll(async () => {
  gemini = await startFakeGeminiUpstream();
  anthropic = await startFakeAnthropicUpstream();
  vertex = await startFakeVertexAI({ gemini: gemini.url, anthropic: anthropic.url });
});
afterAll(async () => {
  await vertex?.close();
  await gemini?.close();
  await anthropic?.close();
});
beforeEach(() => clearGoogleAccessTokens());

function channels(keyFile = vertex.keyFile) {
  return [
    {
      name: 'vertex-gemini',
      provider: 'vertex-ai',
      baseUrl: vertex.url,
      apiKey: keyFile,
      models: ['gemini-2.5-flash', 'text-embedding-005'],
      options: { location: 'us-east5' },
    },
    {
      name: 'vertex-claude',
      provider: 'vertex-anthropic',
      baseUrl: vertex.url,
      apiKey: keyFile,
      models: ['claude-sonnet-4-5'],
      modelMap: { 'claude-sonnet-4-5': 'claude-sonnet-4-5@20250929' },
      options: { location: 'us-east5' },
    },
  ];
}

describe('Gemini on Vertex AI', () => {
  it('serves a Gemini client natively, whole and streamed, with one token exchange', async () => {
    const gw = await startGateway({ channels: channels() });
    try {
      const issued = vertex.tokensIssued;
      const client = new GoogleGenAI({ apiKey: gw.key, httpOptions: { baseUrl: gw.url } });
      const whole = await client.models.generateContent({ model: 'gemini-2.5-flash', contents: 'Say hi' });
      expect(whole.text?.length).toBeGreaterThan(0);
      const call = vertex.calls.at(-1)!;
      expect(call.path).toBe('/v1/projects/gengate-test-project/locations/us-east5/publishers/google/models/gemini-2.5-flash:generateContent');
      expect(call.body).not.toHaveProperty('model');

      let streamed = '';
      for await (const chunk of await client.models.generateContentStream({ model: 'gemini-2.5-flash', contents: 'Count to three' }))
        streamed += chunk.text ?? '';
      expect(streamed.length).toBeGreaterThan(0);
      expect(vertex.calls.at(-1)).toMatchObject({ path: expect.stringMatching(/:streamGenerateContent$/), query: 'alt=sse' });
      expect(vertex.tokensIssued - issued).toBe(1);
    } finally {
      await gw.close();
    }
  });

  it('serves an OpenAI client by translation, with tools, and records the usage', async () => {
    const gw = await startGateway({ channels: channels() });
    try {
      const client = new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: gw.key, maxRetries: 0 });
      const answer = await client.chat.completions.create({
        model: 'gemini-2.5-flash',
        messages: [{ role: 'user', content: 'What is the weather in Paris?' }],
        tools: [
          { type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } } },
        ],
      });
      const [toolCall] = answer.choices[0].message.tool_calls ?? [];
      expect(toolCall?.type === 'function' ? toolCall.function.name : undefined).toBe('get_weather');
      expect(answer.usage?.prompt_tokens).toBeGreaterThan(0);
      const sent = vertex.calls.at(-1)!.body!;
      expect(sent.tools).toBeDefined();
      await gw.gateway.recorder.flush();
      const [row] = await gw.gateway.usage.recent(1);
      expect(row).toMatchObject({ provider: 'vertex-ai', channel: 'vertex-gemini', outcome: 'ok', input_tokens: answer.usage?.prompt_tokens });
    } finally {
      await gw.close();
    }
  });

  it('embeds through :predict', async () => {
    const gw = await startGateway({ channels: channels() });
    try {
      const client = new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: gw.key, maxRetries: 0 });
      const embedded = await client.embeddings.create({ model: 'text-embedding-005', input: ['one two', 'three'], dimensions: 4 });
      expect(embedded.data.map((item) => item.embedding.length)).toEqual([4, 4]);
      expect(embedded.usage.prompt_tokens).toBe(3);
      expect(vertex.calls.at(-1)).toMatchObject({ path: expect.stringMatching(/text-embedding-005:predict$/) });
    } finally {
      await gw.close();
    }
  });
});

describe('Claude on Vertex AI', () => {
  it('serves an Anthropic client natively (rawPredict, streamRawPredict) with the Vertex version in the body', async () => {
    const gw = await startGateway({ channels: channels() });
    try {
      const client = new Anthropic({ baseURL: gw.url, apiKey: gw.key, maxRetries: 0 });
      const whole = await client.messages.create({ model: 'claude-sonnet-4-5', max_tokens: 50, messages: [{ role: 'user', content: 'Say hi' }] });
      expect(whole.content[0]).toMatchObject({ type: 'text' });
      expect(whole.model).toBe('claude-sonnet-4-5');
      const call = vertex.calls.at(-1)!;
      expect(call.path).toBe('/v1/projects/gengate-test-project/locations/us-east5/publishers/anthropic/models/claude-sonnet-4-5@20250929:rawPredict');
      expect(call.body).toMatchObject({ anthropic_version: 'vertex-2023-10-16', max_tokens: 50 });
      expect(call.body).not.toHaveProperty('model');

      const stream = client.messages.stream({ model: 'claude-sonnet-4-5', max_tokens: 50, messages: [{ role: 'user', content: 'Count to three' }] });
      const final = await stream.finalMessage();
      expect(final.content[0]).toMatchObject({ type: 'text' });
      expect(vertex.calls.at(-1)!.path).toMatch(/:streamRawPredict$/);
    } finally {
      await gw.close();
    }
  });

  it('serves a Gemini client by translation', async () => {
    const gw = await startGateway({ channels: channels() });
    try {
      const client = new GoogleGenAI({ apiKey: gw.key, httpOptions: { baseUrl: gw.url } });
      const answer = await client.models.generateContent({ model: 'claude-sonnet-4-5', contents: 'Say hi', config: { maxOutputTokens: 64 } });
      expect(answer.text?.length).toBeGreaterThan(0);
      expect(vertex.calls.at(-1)!.body).toMatchObject({ anthropic_version: 'vertex-2023-10-16', max_tokens: 64 });
    } finally {
      await gw.close();
    }
  });
});

describe('service-account credentials', () => {
  it('a key the token endpoint refuses fails the channel over; nothing reaches Vertex with it', async () => {
    const [bad] = channels(vertex.untrustedKeyFile);
    const [good] = channels();
    const gw = await startGateway({ channels: [{ ...bad, name: 'vertex-bad', priority: 10 }, good] });
    try {
      const before = vertex.calls.length;
      const client = new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: gw.key, maxRetries: 0 });
      const answer = await client.chat.completions.create({ model: 'gemini-2.5-flash', messages: [{ role: 'user', content: 'Say hi' }] }).withResponse();
      expect(answer.response.headers.get('x-gengate-channel')).toBe('vertex-gemini');
      expect(vertex.calls.length - before).toBe(1);
    } finally {
      await gw.close();
    }
  });

  it('a key that is not a service-account key file fails clearly, not with a 500', async () => {
    const [bad] = channels('{"type":"authorized_user"}');
    const gw = await startGateway({ channels: [bad] });
    try {
      const client = new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: gw.key, maxRetries: 0 });
      const error = (await client.chat.completions
        .create({ model: 'gemini-2.5-flash', messages: [{ role: 'user', content: 'Say hi' }] })
        .catch((e: unknown) => e)) as InstanceType<typeof OpenAI.APIError>;
      expect(error).toBeInstanceOf(OpenAI.APIError);
      expect(error.status).toBe(502);
      expect(error.message).toContain('not a usable service-account key file');
    } finally {
      await gw.close();
    }
  });
});
