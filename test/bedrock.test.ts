/**
 * AWS Bedrock channels driven by the official SDKs against a fake Bedrock runtime
 * (fakes/fake-bedrock.ts) that verifies every request's SigV4 signature by hand and speaks the
 * binary event-stream framing byte for byte: any chat model through Converse (`bedrock`) from
 * other dialects, whole and streamed, with tools and usage recorded; throttling, refused
 * credentials and a corrupt frame each ending in a clear error in the client's own shape.
 */
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeAnthropicUpstream, startFakeAnthropicUpstream } from './fakes/fake-anthropic-upstream.js';
import { BEDROCK_ACCESS_KEY_ID, BEDROCK_CHANNEL_KEY, BEDROCK_REGION, type FakeBedrock, startFakeBedrock } from './fakes/fake-bedrock.js';
import { type ChannelSpec, startGateway } from './helpers/start-gateway.js';

let anthropic: FakeAnthropicUpstream;
let bedrock: FakeBedrock;

beforeAll(async () => {
  anthropic = await startFakeAnthropicUpstream();
  bedrock = await startFakeBedrock({ anthropic: anthropic.url });
});
afterAll(async () => {
  await bedrock?.close();
  await anthropic?.close();
});

const CLAUDE_PROFILE = 'us.anthropic.claude-sonnet-4-5-20250929-v1:0';

function converseChannel(overrides: Partial<ChannelSpec> = {}): ChannelSpec {
  return {
    name: 'bedrock-converse',
    provider: 'bedrock',
    baseUrl: bedrock.url,
    apiKey: BEDROCK_CHANNEL_KEY,
    models: ['claude-sonnet-4-5', 'llama-3-3', 'amazon.titan-embed-text-v2:0', 'throttled-model', 'bad-crc-model', 'stream-throttled-model'],
    modelMap: {
      'claude-sonnet-4-5': CLAUDE_PROFILE,
      'llama-3-3': 'meta.llama3-3-70b-instruct-v1:0',
      'throttled-model': 'meta.llama-throttled-v1:0',
      'bad-crc-model': 'meta.llama-bad-crc-v1:0',
      'stream-throttled-model': 'meta.llama-stream-throttled-v1:0',
    },
    options: { region: BEDROCK_REGION },
    ...overrides,
  };
}

function claudeChannel(overrides: Partial<ChannelSpec> = {}): ChannelSpec {
  return {
    name: 'bedrock-claude',
    provider: 'bedrock-anthropic',
    baseUrl: bedrock.url,
    apiKey: BEDROCK_CHANNEL_KEY,
    models: ['claude-native'],
    modelMap: { 'claude-native': CLAUDE_PROFILE },
    options: { region: BEDROCK_REGION },
    ...overrides,
  };
}

const WEATHER_TOOL = {
  type: 'function' as const,
  function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } },
};

describe('Converse (any Bedrock chat model)', () => {
  it('serves an OpenAI client from Claude by an inference profile id, signed, with usage recorded', async () => {
    const gw = await startGateway({ channels: [converseChannel()] });
    try {
      const client = new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: gw.key, maxRetries: 0 });
      const answer = await client.chat.completions.create({
        model: 'claude-sonnet-4-5',
        messages: [
          { role: 'system', content: 'Be brief.' },
          { role: 'user', content: 'Say hi' },
        ],
        max_tokens: 40,
        temperature: 0.5,
        stop: ['END'],
      });
      expect(answer.choices[0].message.content).toBe(`Hello from ${CLAUDE_PROFILE}. You said: Say hi`);
      expect(answer.choices[0].finish_reason).toBe('stop');
      expect(answer.model).toBe('claude-sonnet-4-5');
      const call = bedrock.calls.at(-1)!;
      // The `:` of the profile id is percent-encoded in the path (and the signature covers that path).
      expect(call.rawPath).toBe('/model/us.anthropic.claude-sonnet-4-5-20250929-v1%3A0/converse');
      expect(String(call.headers.authorization)).toContain(`Credential=${BEDROCK_ACCESS_KEY_ID}/`);
      expect(call.body).toMatchObject({
        system: [{ text: 'Be brief.' }],
        messages: [{ role: 'user', content: [{ text: 'Say hi' }] }],
        inferenceConfig: { maxTokens: 40, temperature: 0.5, stopSequences: ['END'] },
      });
      // The fake counts words: system (2) + user (2) + 3.
      expect(answer.usage).toMatchObject({ prompt_tokens: 7, completion_tokens: 7 });
      await gw.gateway.recorder.flush();
      const [row] = await gw.gateway.usage.recent(1);
      expect(row).toMatchObject({ provider: 'bedrock', channel: 'bedrock-converse', outcome: 'ok', input_tokens: 7, output_tokens: 7 });
    } finally {
      await gw.close();
    }
  });

  it('streams to an OpenAI client from the event-stream frames, with usage', async () => {
    const gw = await startGateway({ channels: [converseChannel()] });
    try {
      const client = new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: gw.key, maxRetries: 0 });
      const stream = await client.chat.completions.create({
        model: 'claude-sonnet-4-5',
        messages: [{ role: 'user', content: 'Count to three' }],
        stream: true,
        stream_options: { include_usage: true },
      });
      let text = '';
      let usage: OpenAI.CompletionUsage | undefined | null;
      let finish: string | null | undefined;
      for await (const chunk of stream) {
        text += chunk.choices[0]?.delta.content ?? '';
        finish = chunk.choices[0]?.finish_reason ?? finish;
        if (chunk.usage) usage = chunk.usage;
      }
      expect(text).toBe(`Hello from ${CLAUDE_PROFILE}. You said: Count to three`);
      expect(finish).toBe('stop');
      expect(usage).toMatchObject({ prompt_tokens: 6, completion_tokens: 8 });
      expect(bedrock.calls.at(-1)!.rawPath).toMatch(/\/converse-stream$/);
    } finally {
      await gw.close();
    }
  });

  it('carries tools both ways, whole and streamed, and sends the tool result back', async () => {
    const gw = await startGateway({ channels: [converseChannel()] });
    try {
      const client = new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: gw.key, maxRetries: 0 });
      const asked = { model: 'claude-sonnet-4-5', messages: [{ role: 'user' as const, content: 'Weather in Paris?' }], tools: [WEATHER_TOOL] };
      const answer = await client.chat.completions.create(asked);
      const [call] = answer.choices[0].message.tool_calls ?? [];
      expect(answer.choices[0].finish_reason).toBe('tool_calls');
      expect(call?.type === 'function' ? [call.id, call.function.name, JSON.parse(call.function.arguments)] : undefined).toEqual([
        'tooluse_fake0001',
        'get_weather',
        { city: 'Paris' },
      ]);
      expect(bedrock.calls.at(-1)!.body.toolConfig).toEqual({
        tools: [{ toolSpec: { name: 'get_weather', inputSchema: { json: WEATHER_TOOL.function.parameters } } }],
      });

      let args = '';
      let name: string | undefined;
      for await (const chunk of await client.chat.completions.create({ ...asked, stream: true })) {
        const delta = chunk.choices[0]?.delta.tool_calls?.[0];
        name = delta?.function?.name ?? name;
        args += delta?.function?.arguments ?? '';
      }
      expect(name).toBe('get_weather');
      expect(JSON.parse(args)).toEqual({ city: 'Paris' });

      const followUp = await client.chat.completions.create({
        ...asked,
        messages: [...asked.messages, answer.choices[0].message, { role: 'tool', tool_call_id: 'tooluse_fake0001', content: '18°C and sunny' }],
      });
      expect(followUp.choices[0].message.content).toContain('the tool answered');
      expect(bedrock.calls.at(-1)!.body.messages).toEqual([
        { role: 'user', content: [{ text: 'Weather in Paris?' }] },
        {
          role: 'assistant',
          content: [{ text: 'Let me check.' }, { toolUse: { toolUseId: 'tooluse_fake0001', name: 'get_weather', input: { city: 'Paris' } } }],
        },
        { role: 'user', content: [{ toolResult: { toolUseId: 'tooluse_fake0001', content: [{ text: '18°C and sunny' }] } }] },
      ]);
    } finally {
      await gw.close();
    }
  });

  it('serves an Anthropic client from a Llama model, whole and streamed', async () => {
    const gw = await startGateway({ channels: [converseChannel()] });
    try {
      const client = new Anthropic({ baseURL: gw.url, apiKey: gw.key, maxRetries: 0 });
      const whole = await client.messages.create({ model: 'llama-3-3', max_tokens: 50, messages: [{ role: 'user', content: 'Say hi' }] });
      expect(whole.content[0]).toMatchObject({ type: 'text', text: 'Hello from meta.llama3-3-70b-instruct-v1:0. You said: Say hi' });
      expect(whole.stop_reason).toBe('end_turn');
      expect(whole.usage).toMatchObject({ input_tokens: 5, output_tokens: 7 });
      const final = await client.messages.stream({ model: 'llama-3-3', max_tokens: 50, messages: [{ role: 'user', content: 'Say hi' }] }).finalMessage();
      expect(final.content[0]).toMatchObject({ type: 'text', text: 'Hello from meta.llama3-3-70b-instruct-v1:0. You said: Say hi' });
      expect(bedrock.calls.at(-1)!.rawPath).toBe('/model/meta.llama3-3-70b-instruct-v1%3A0/converse-stream');
    } finally {
      await gw.close();
    }
  });
});

describe('Titan embeddings', () => {
  it('embeds each input with its own InvokeModel call, in order, with the token counts', async () => {
    const gw = await startGateway({ channels: [converseChannel()] });
    try {
      const before = bedrock.calls.length;
      const client = new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: gw.key, maxRetries: 0 });
      const embedded = await client.embeddings.create({ model: 'amazon.titan-embed-text-v2:0', input: ['one two', 'three'], dimensions: 256 });
      expect(embedded.data.map((item) => item.embedding.length)).toEqual([256, 256]);
      expect(embedded.usage.prompt_tokens).toBe(3);
      const calls = bedrock.calls.slice(before);
      expect(calls.map((call) => [call.rawPath, call.body])).toEqual([
        ['/model/amazon.titan-embed-text-v2%3A0/invoke', { inputText: 'one two', dimensions: 256 }],
        ['/model/amazon.titan-embed-text-v2%3A0/invoke', { inputText: 'three', dimensions: 256 }],
      ]);
    } finally {
      await gw.close();
    }
  });
});

describe('Bedrock errors in the client shape', () => {
  it('a ThrottlingException stays a 429 with its retry hint', async () => {
    const gw = await startGateway({ channels: [converseChannel()] });
    try {
      const openai = new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: gw.key, maxRetries: 0 });
      const error = (await openai.chat.completions
        .create({ model: 'throttled-model', messages: [{ role: 'user', content: 'hi' }] })
        .catch((e: unknown) => e)) as InstanceType<typeof OpenAI.APIError>;
      expect(error).toBeInstanceOf(OpenAI.RateLimitError);
      expect(error.headers?.get('retry-after')).toBe('7');
      expect(error.message).toContain('ThrottlingException');

      const claude = new Anthropic({ baseURL: gw.url, apiKey: gw.key, maxRetries: 0 });
      const refused = (await claude.messages
        .create({ model: 'throttled-model', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] })
        .catch((e: unknown) => e)) as InstanceType<typeof Anthropic.APIError>;
      expect(refused).toBeInstanceOf(Anthropic.RateLimitError);
      expect(refused.headers?.get('retry-after')).toBe('7');
      expect((refused.error as { error?: { type?: string } }).error?.type).toBe('rate_limit_error');
    } finally {
      await gw.close();
    }
  });

  it('refused credentials (wrong secret, expired token) fail the channel over', async () => {
    const bad = [
      converseChannel({ name: 'bedrock-wrong-secret', priority: 20, apiKey: `${BEDROCK_ACCESS_KEY_ID}:wrong-secret` }),
      converseChannel({ name: 'bedrock-expired', priority: 10, apiKey: `${BEDROCK_CHANNEL_KEY}:expired-token` }),
    ];
    const gw = await startGateway({ channels: [...bad, converseChannel()] });
    try {
      const client = new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: gw.key, maxRetries: 0 });
      const answer = await client.chat.completions.create({ model: 'llama-3-3', messages: [{ role: 'user', content: 'Say hi' }] }).withResponse();
      expect(answer.response.headers.get('x-gengate-channel')).toBe('bedrock-converse');
      expect(answer.data.choices[0].message.content).toContain('Hello from meta.llama3-3-70b-instruct-v1:0');
    } finally {
      await gw.close();
    }
  });

  it('only refused credentials: a clear upstream error, not a 500', async () => {
    const cases = [
      { apiKey: `${BEDROCK_ACCESS_KEY_ID}:wrong-secret`, says: 'InvalidSignatureException' },
      { apiKey: `AKIAUNKNOWN000000000:${'x'.repeat(40)}`, says: 'UnrecognizedClientException' },
      { apiKey: 'not-an-aws-key', says: 'ACCESS_KEY_ID:SECRET_ACCESS_KEY' },
    ];
    for (const { apiKey, says } of cases) {
      const gw = await startGateway({ channels: [converseChannel({ apiKey })] });
      try {
        const client = new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: gw.key, maxRetries: 0 });
        const error = (await client.chat.completions
          .create({ model: 'llama-3-3', messages: [{ role: 'user', content: 'hi' }] })
          .catch((e: unknown) => e)) as InstanceType<typeof OpenAI.APIError>;
        expect(error).toBeInstanceOf(OpenAI.APIError);
        expect(error.status).toBe(502);
        expect(error.message).toContain(says);
      } finally {
        await gw.close();
      }
    }
  });

  it('a frame with a bad CRC ends the stream with a clear error, not a hang', async () => {
    const gw = await startGateway({ channels: [converseChannel()] });
    try {
      const client = new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: gw.key, maxRetries: 0 });
      const stream = await client.chat.completions.create({ model: 'bad-crc-model', messages: [{ role: 'user', content: 'hi' }], stream: true });
      const failure = await (async () => {
        for await (const _chunk of stream) {
          // drain
        }
      })().catch((e: unknown) => e);
      expect(failure).toBeInstanceOf(Error);
      expect(String((failure as Error).message)).toMatch(/malformed event-stream frame.*checksum/i);
    } finally {
      await gw.close();
    }
  });

  it('a throttlingException frame mid-stream reaches an Anthropic client as a rate_limit_error event', async () => {
    const gw = await startGateway({ channels: [converseChannel()] });
    try {
      const client = new Anthropic({ baseURL: gw.url, apiKey: gw.key, maxRetries: 0 });
      const failure = await client.messages
        .stream({ model: 'stream-throttled-model', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] })
        .finalMessage()
        .catch((e: unknown) => e);
      expect(failure).toBeInstanceOf(Anthropic.APIError);
      expect(String((failure as Error).message)).toContain('rate_limit_error');
      expect(String((failure as Error).message)).toContain('throttlingException');
    } finally {
      await gw.close();
    }
  });
});

describe('Anthropic Messages on Bedrock (InvokeModel)', () => {
  it('serves an Anthropic client natively, whole and streamed, with the Bedrock version in the body', async () => {
    const gw = await startGateway({ channels: [claudeChannel()] });
    try {
      const client = new Anthropic({ baseURL: gw.url, apiKey: gw.key, maxRetries: 0 });
      const whole = await client.messages.create(
        { model: 'claude-native', max_tokens: 50, messages: [{ role: 'user', content: 'Say hi' }] },
        { headers: { 'anthropic-beta': 'context-1m-2025-08-07' } },
      );
      expect(whole.content[0]).toMatchObject({ type: 'text' });
      expect(whole.model).toBe('claude-native');
      const call = bedrock.calls.at(-1)!;
      expect(call.rawPath).toBe('/model/us.anthropic.claude-sonnet-4-5-20250929-v1%3A0/invoke');
      expect(call.body).toMatchObject({ anthropic_version: 'bedrock-2023-05-31', max_tokens: 50, anthropic_beta: ['context-1m-2025-08-07'] });
      expect(call.body).not.toHaveProperty('model');

      const stream = client.messages.stream({ model: 'claude-native', max_tokens: 50, messages: [{ role: 'user', content: 'Count to three' }] });
      const final = await stream.finalMessage();
      expect(final.content[0]).toMatchObject({ type: 'text' });
      expect(final.usage.output_tokens).toBeGreaterThan(0);
      expect(final.model).toBe('claude-native');
      const streamed = bedrock.calls.at(-1)!;
      expect(streamed.rawPath).toMatch(/\/invoke-with-response-stream$/);
      expect(streamed.body).not.toHaveProperty('stream');
      await gw.gateway.recorder.flush();
      const [row] = await gw.gateway.usage.recent(1);
      expect(row).toMatchObject({ provider: 'bedrock-anthropic', channel: 'bedrock-claude', outcome: 'ok', output_tokens: final.usage.output_tokens });
    } finally {
      await gw.close();
    }
  });

  it('serves an OpenAI client by translation, streamed with tools', async () => {
    const gw = await startGateway({ channels: [claudeChannel()] });
    try {
      const client = new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: gw.key, maxRetries: 0 });
      let text = '';
      for await (const chunk of await client.chat.completions.create({
        model: 'claude-native',
        messages: [{ role: 'user', content: 'Say hi' }],
        stream: true,
      }))
        text += chunk.choices[0]?.delta.content ?? '';
      expect(text.length).toBeGreaterThan(0);
      const answer = await client.chat.completions.create({
        model: 'claude-native',
        messages: [{ role: 'user', content: 'What is the weather in Paris?' }],
        tools: [WEATHER_TOOL],
      });
      const [toolCall] = answer.choices[0].message.tool_calls ?? [];
      expect(toolCall?.type === 'function' ? toolCall.function.name : undefined).toBe('get_weather');
      expect(bedrock.calls.at(-1)!.body).toMatchObject({ anthropic_version: 'bedrock-2023-05-31', tools: [{ name: 'get_weather' }] });
    } finally {
      await gw.close();
    }
  });

  it('a throttled Claude model answers an Anthropic client with its 429 and retry hint', async () => {
    const gw = await startGateway({ channels: [claudeChannel({ modelMap: { 'claude-native': 'us.anthropic.claude-throttled-v1:0' } })] });
    try {
      const client = new Anthropic({ baseURL: gw.url, apiKey: gw.key, maxRetries: 0 });
      const refused = (await client.messages
        .create({ model: 'claude-native', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] })
        .catch((e: unknown) => e)) as InstanceType<typeof Anthropic.APIError>;
      expect(refused).toBeInstanceOf(Anthropic.RateLimitError);
      expect(refused.headers?.get('retry-after')).toBe('7');
      expect(refused.message).toContain('ThrottlingException');
    } finally {
      await gw.close();
    }
  });
});
