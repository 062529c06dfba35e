/**
 * Amazon Bedrock API keys (`Authorization: Bearer <key>` instead of SigV4) driven by the official
 * SDKs against the fake Bedrock runtime (fakes/fake-bedrock.ts), which checks the bearer key when
 * one is sent and the SigV4 signature otherwise: a channel's long-term or short-term key for chat
 * whole and streamed (Converse and Claude's InvokeModel), `AWS_BEARER_TOKEN_BEDROCK` for a channel
 * without a key, a channel's own key winning over it, a key stored sealed through the admin API,
 * and a refused key failing the channel over or ending in a clear error in the client's shape.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AdminClient } from './admin/admin-client.js';
import { type FakeAnthropicUpstream, startFakeAnthropicUpstream } from './fakes/fake-anthropic-upstream.js';
import {
  BEDROCK_ACCESS_KEY_ID,
  BEDROCK_API_KEY,
  BEDROCK_CHANNEL_KEY,
  BEDROCK_REGION,
  BEDROCK_SHORT_TERM_API_KEY,
  type FakeBedrock,
  startFakeBedrock,
} from './fakes/fake-bedrock.js';
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
const LLAMA = 'meta.llama3-3-70b-instruct-v1:0';
/** A long-term key of the right shape that the fake never issued. */
const UNKNOWN_API_KEY = `ABSK${Buffer.from('BedrockAPIKey-revoked-at-123456789012:oldSecret').toString('base64')}`;

function converse(apiKey: string, overrides: Partial<ChannelSpec> = {}): ChannelSpec {
  return {
    name: 'bedrock-key',
    provider: 'bedrock',
    baseUrl: bedrock.url,
    apiKey,
    models: ['claude-sonnet-4-5', 'llama-3-3'],
    modelMap: { 'claude-sonnet-4-5': CLAUDE_PROFILE, 'llama-3-3': LLAMA },
    options: { region: BEDROCK_REGION },
    ...overrides,
  };
}

function expectBearer(key: string): void {
  const headers = bedrock.calls.at(-1)!.headers;
  expect(headers.authorization).toBe(`Bearer ${key}`);
  // Nothing signed: a bearer request carries no SigV4 date or security token.
  expect(headers).not.toHaveProperty('x-amz-date');
  expect(headers).not.toHaveProperty('x-amz-security-token');
}

describe('a Bedrock API key on the channel', () => {
  it('serves an OpenAI client through Converse with a long-term key, whole and streamed, with usage', async () => {
    const gw = await startGateway({ channels: [converse(BEDROCK_API_KEY)] });
    try {
      const client = new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: gw.key, maxRetries: 0 });
      const answer = await client.chat.completions.create({ model: 'claude-sonnet-4-5', messages: [{ role: 'user', content: 'Say hi' }] });
      expect(answer.choices[0].message.content).toBe(`Hello from ${CLAUDE_PROFILE}. You said: Say hi`);
      expect(answer.usage).toMatchObject({ prompt_tokens: 5, completion_tokens: 7 });
      expectBearer(BEDROCK_API_KEY);

      let text = '';
      let usage: OpenAI.CompletionUsage | undefined | null;
      for await (const chunk of await client.chat.completions.create({
        model: 'claude-sonnet-4-5',
        messages: [{ role: 'user', content: 'Count to three' }],
        stream: true,
        stream_options: { include_usage: true },
      })) {
        text += chunk.choices[0]?.delta.content ?? '';
        if (chunk.usage) usage = chunk.usage;
      }
      expect(text).toBe(`Hello from ${CLAUDE_PROFILE}. You said: Count to three`);
      expect(usage).toMatchObject({ prompt_tokens: 6, completion_tokens: 8 });
      expect(bedrock.calls.at(-1)!.rawPath).toMatch(/\/converse-stream$/);
      expectBearer(BEDROCK_API_KEY);
      await gw.gateway.recorder.flush();
      const [row] = await gw.gateway.usage.recent(1);
      expect(row).toMatchObject({ provider: 'bedrock', channel: 'bedrock-key', outcome: 'ok', input_tokens: 6, output_tokens: 8 });
    } finally {
      await gw.close();
    }
  });

  it('serves an Anthropic client with a short-term key, through Converse and natively through InvokeModel, whole and streamed', async () => {
    const claude: ChannelSpec = {
      name: 'bedrock-claude-key',
      provider: 'bedrock-anthropic',
      baseUrl: bedrock.url,
      apiKey: BEDROCK_SHORT_TERM_API_KEY,
      models: ['claude-native'],
      modelMap: { 'claude-native': CLAUDE_PROFILE },
      options: { region: BEDROCK_REGION },
    };
    const gw = await startGateway({ channels: [converse(BEDROCK_SHORT_TERM_API_KEY), claude] });
    try {
      const client = new Anthropic({ baseURL: gw.url, apiKey: gw.key, maxRetries: 0 });
      const llama = await client.messages.create({ model: 'llama-3-3', max_tokens: 50, messages: [{ role: 'user', content: 'Say hi' }] });
      expect(llama.content[0]).toMatchObject({ type: 'text', text: `Hello from ${LLAMA}. You said: Say hi` });
      expectBearer(BEDROCK_SHORT_TERM_API_KEY);
      const streamed = await client.messages.stream({ model: 'llama-3-3', max_tokens: 50, messages: [{ role: 'user', content: 'Say hi' }] }).finalMessage();
      expect(streamed.content[0]).toMatchObject({ type: 'text', text: `Hello from ${LLAMA}. You said: Say hi` });
      expect(streamed.usage).toMatchObject({ input_tokens: 5, output_tokens: 7 });
      expectBearer(BEDROCK_SHORT_TERM_API_KEY);

      const whole = await client.messages.create({ model: 'claude-native', max_tokens: 50, messages: [{ role: 'user', content: 'Say hi' }] });
      expect(whole.content[0]).toMatchObject({ type: 'text' });
      expect(bedrock.calls.at(-1)!.rawPath).toBe('/model/us.anthropic.claude-sonnet-4-5-20250929-v1%3A0/invoke');
      expectBearer(BEDROCK_SHORT_TERM_API_KEY);
      const final = await client.messages
        .stream({ model: 'claude-native', max_tokens: 50, messages: [{ role: 'user', content: 'Count to three' }] })
        .finalMessage();
      expect(final.content[0]).toMatchObject({ type: 'text' });
      expect(final.usage.output_tokens).toBeGreaterThan(0);
      expect(bedrock.calls.at(-1)!.rawPath).toMatch(/\/invoke-with-response-stream$/);
      expectBearer(BEDROCK_SHORT_TERM_API_KEY);
    } finally {
      await gw.close();
    }
  });
});

describe('AWS_BEARER_TOKEN_BEDROCK', () => {
  const saved = { ...process.env };
  afterEach(() => {
    for (const name of ['AWS_BEARER_TOKEN_BEDROCK', 'AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY']) {
      if (saved[name] === undefined) delete process.env[name];
      else process.env[name] = saved[name];
    }
  });

  it('serves a channel without a key, preferred to the AWS_* keys as the AWS SDK prefers it', async () => {
    process.env.AWS_BEARER_TOKEN_BEDROCK = BEDROCK_API_KEY;
    // Keys the fake would refuse: were they used, the request would fail.
    process.env.AWS_ACCESS_KEY_ID = 'AKIAUNKNOWN000000000';
    process.env.AWS_SECRET_ACCESS_KEY = 'x'.repeat(40);
    const gw = await startGateway({ channels: [converse('')] });
    try {
      const client = new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: gw.key, maxRetries: 0 });
      const answer = await client.chat.completions.create({ model: 'llama-3-3', messages: [{ role: 'user', content: 'Say hi' }] });
      expect(answer.choices[0].message.content).toBe(`Hello from ${LLAMA}. You said: Say hi`);
      expectBearer(BEDROCK_API_KEY);
    } finally {
      await gw.close();
    }
  });

  it("gives way to a channel's own AWS keys, which still sign", async () => {
    process.env.AWS_BEARER_TOKEN_BEDROCK = UNKNOWN_API_KEY;
    const gw = await startGateway({ channels: [converse(BEDROCK_CHANNEL_KEY)] });
    try {
      const client = new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: gw.key, maxRetries: 0 });
      const answer = await client.chat.completions.create({ model: 'llama-3-3', messages: [{ role: 'user', content: 'Say hi' }] });
      expect(answer.choices[0].message.content).toContain('Hello from');
      expect(String(bedrock.calls.at(-1)!.headers.authorization)).toMatch(new RegExp(`^AWS4-HMAC-SHA256 Credential=${BEDROCK_ACCESS_KEY_ID}/`));
    } finally {
      await gw.close();
    }
  });
});

describe('a refused Bedrock API key', () => {
  it('fails the channel over to the next one', async () => {
    const gw = await startGateway({
      channels: [converse(UNKNOWN_API_KEY, { name: 'bedrock-revoked', priority: 10 }), converse(BEDROCK_API_KEY, { name: 'bedrock-good' })],
    });
    try {
      const refusedBefore = bedrock.refusedAuthorizations.length;
      const client = new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: gw.key, maxRetries: 0 });
      const answer = await client.chat.completions.create({ model: 'llama-3-3', messages: [{ role: 'user', content: 'Say hi' }] }).withResponse();
      expect(answer.response.headers.get('x-gengate-channel')).toBe('bedrock-good');
      expect(answer.data.choices[0].message.content).toContain(`Hello from ${LLAMA}`);
      expect(bedrock.refusedAuthorizations.slice(refusedBefore)).toEqual([`Bearer ${UNKNOWN_API_KEY}`]);
      expectBearer(BEDROCK_API_KEY);
    } finally {
      await gw.close();
    }
  });

  it('alone: a clear upstream error in the OpenAI and the Anthropic shape, not a 500', async () => {
    const gw = await startGateway({ channels: [converse(UNKNOWN_API_KEY)] });
    try {
      const openai = new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: gw.key, maxRetries: 0 });
      const error = (await openai.chat.completions
        .create({ model: 'llama-3-3', messages: [{ role: 'user', content: 'hi' }] })
        .catch((e: unknown) => e)) as InstanceType<typeof OpenAI.APIError>;
      expect(error).toBeInstanceOf(OpenAI.APIError);
      expect(error.status).toBe(502);
      expect(error.message).toContain('upstream refused the channel credentials');
      expect(error.message).toContain('Authentication failed: Please make sure your API Key is valid.');
      expect(error.message).not.toContain(UNKNOWN_API_KEY);

      const claude = new Anthropic({ baseURL: gw.url, apiKey: gw.key, maxRetries: 0 });
      const refused = (await claude.messages
        .stream({ model: 'llama-3-3', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] })
        .finalMessage()
        .catch((e: unknown) => e)) as InstanceType<typeof Anthropic.APIError>;
      expect(refused).toBeInstanceOf(Anthropic.APIError);
      expect(refused.status).toBe(502);
      expect((refused.error as { type?: string })?.type).toBe('error');
      expect(refused.message).toContain('Authentication failed');
    } finally {
      await gw.close();
    }
  });
});

describe('a Bedrock API key stored through the admin API', () => {
  it('is sealed at rest and serves the channel', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gengate-bedrock-key-'));
    const master = 'gg-master-bedrock-key-0123456789';
    const gw = await startGateway({ masterKey: master, databaseUrl: `sqlite:${join(dir, 'gengate.db')}`, secretKey: Buffer.alloc(32, 7).toString('base64') });
    try {
      const admin = new AdminClient(gw.url, master);
      // A stored channel has no options: the key needs no region when the endpoint is given.
      const created = await admin.call('POST', '/channels', {
        name: 'bedrock-stored',
        provider: 'bedrock',
        baseUrl: bedrock.url,
        apiKey: BEDROCK_API_KEY,
        models: ['llama-3-3'],
        modelMap: { 'llama-3-3': LLAMA },
      });
      expect(created.status).toBe(201);
      expect(JSON.stringify(created.body)).not.toContain(BEDROCK_API_KEY);
      const client = new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: gw.key, maxRetries: 0 });
      const answer = await client.chat.completions.create({ model: 'llama-3-3', messages: [{ role: 'user', content: 'Say hi' }] });
      expect(answer.choices[0].message.content).toBe(`Hello from ${LLAMA}. You said: Say hi`);
      expectBearer(BEDROCK_API_KEY);
      expect(readFileSync(join(dir, 'gengate.db')).includes(BEDROCK_API_KEY.slice(4, 40))).toBe(false);
    } finally {
      await gw.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
