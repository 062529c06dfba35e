/**
 * Capability-aware routing with real HTTP upstreams: a channel whose model lacks what the
 * request needs is skipped before any upstream is called, and when no channel fits, the call is
 * refused with a 400 naming what is missing.
 */
import OpenAI from 'openai';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { FAKE_OPENAI_API_KEY, type FakeOpenAIUpstream, startFakeOpenAIUpstream } from './fakes/fake-openai-upstream.js';
import { type ChannelSpec, type RunningGateway, startGateway } from './helpers/start-gateway.js';

let first: FakeOpenAIUpstream;
let second: FakeOpenAIUpstream;
let gw: RunningGateway | undefined;

beforeAll(async () => {
  first = await startFakeOpenAIUpstream();
  second = await startFakeOpenAIUpstream();
});
afterAll(async () => {
  await first.close();
  await second.close();
});
afterEach(async () => {
  await gw?.close();
  gw = undefined;
  first.requests.length = 0;
  second.requests.length = 0;
});

// The first channel sends gpt-4o to an upstream model the catalog says takes no tools (a
// gengate.yaml `models:` entry); the second sends it as gpt-4o, which does.
const NO_TOOLS_MODEL = { id: 'legacy-no-tools', operations: ['chat' as const], capabilities: ['vision' as const], inputTokenLimit: 4096 };

function channels(withSecond = true): ChannelSpec[] {
  const list: ChannelSpec[] = [
    {
      name: 'first',
      provider: 'openai',
      baseUrl: first.url,
      apiKey: FAKE_OPENAI_API_KEY,
      models: ['gpt-4o'],
      modelMap: { 'gpt-4o': NO_TOOLS_MODEL.id },
      priority: 10,
    },
  ];
  if (withSecond) list.push({ name: 'second', provider: 'openai', baseUrl: second.url, apiKey: FAKE_OPENAI_API_KEY, models: ['gpt-4o'], priority: 0 });
  return list;
}

const client = () => new OpenAI({ baseURL: `${gw!.url}/v1`, apiKey: gw!.key, maxRetries: 0 });
const tools = [
  {
    type: 'function' as const,
    function: { name: 'lookup', description: 'Looks a word up', parameters: { type: 'object', properties: { word: { type: 'string' } } } },
  },
];

describe('capability-aware routing', () => {
  it('sends a request with tools past a channel whose model has no tool support, to the next one, with no upstream error', async () => {
    gw = await startGateway({ channels: channels(), models: [NO_TOOLS_MODEL] });
    const { data, response } = await client()
      .chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'ping' }], tools })
      .withResponse();
    expect(response.status).toBe(200);
    expect(response.headers.get('x-gengate-channel')).toBe('second');
    expect(data.choices[0].message).toBeDefined();
    expect(first.requests).toHaveLength(0);
    expect(second.requests).toHaveLength(1);
  });

  it('still uses the first channel for a request that needs nothing it lacks', async () => {
    gw = await startGateway({ channels: channels(), models: [NO_TOOLS_MODEL] });
    const { response } = await client()
      .chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'ping' }] })
      .withResponse();
    expect(response.headers.get('x-gengate-channel')).toBe('first');
    expect(first.requests).toHaveLength(1);
  });

  it('refuses with a 400 naming what is missing when no channel fits, calling no upstream', async () => {
    gw = await startGateway({ channels: channels(false), models: [NO_TOOLS_MODEL] });
    const error = await client()
      .chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'ping' }], tools })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    const bad = error as InstanceType<typeof OpenAI.BadRequestError>;
    expect(bad.code).toBe('model_capability_missing');
    expect(bad.message).toMatch(/missing: tools/);
    expect(first.requests).toHaveLength(0);
  });

  it('sends a request asking for reasoning past a channel whose model does not reason, and serves it when no channel does', async () => {
    // The plain channel's upstream model declares no reasoning; the thinker's does.
    const models = [
      { id: 'plain-upstream', operations: ['chat' as const], capabilities: ['tools' as const, 'vision' as const, 'pdf' as const, 'json_schema' as const] },
      {
        id: 'thinking-upstream',
        operations: ['chat' as const],
        capabilities: ['tools' as const, 'vision' as const, 'pdf' as const, 'json_schema' as const, 'reasoning' as const],
      },
    ];
    const thinker: ChannelSpec = {
      name: 'thinker',
      provider: 'openai',
      baseUrl: first.url,
      apiKey: FAKE_OPENAI_API_KEY,
      models: ['gpt-4o'],
      modelMap: { 'gpt-4o': 'thinking-upstream' },
      priority: 0,
    };
    const plain: ChannelSpec = {
      name: 'plain',
      provider: 'openai',
      baseUrl: second.url,
      apiKey: FAKE_OPENAI_API_KEY,
      models: ['gpt-4o'],
      modelMap: { 'gpt-4o': 'plain-upstream' },
      priority: 10,
    };
    gw = await startGateway({ channels: [plain, thinker], models });
    const ask = { model: 'gpt-4o', messages: [{ role: 'user' as const, content: 'ping' }], reasoning_effort: 'low' as const };
    const { response } = await client().chat.completions.create(ask).withResponse();
    expect(response.headers.get('x-gengate-channel')).toBe('thinker');
    expect(second.requests).toHaveLength(0);
    // Without thinking the higher priority channel answers, as before.
    const { response: plainAnswer } = await client()
      .chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'ping' }] })
      .withResponse();
    expect(plainAnswer.headers.get('x-gengate-channel')).toBe('plain');
    await gw.close();
    // No channel reasons: the request is served all the same (the budget is the provider's to drop).
    gw = await startGateway({ channels: [plain], models });
    const { response: served } = await client().chat.completions.create(ask).withResponse();
    expect(served.status).toBe(200);
    expect(served.headers.get('x-gengate-channel')).toBe('plain');
  });

  it("leaves out a channel whose model's context is smaller than the request", async () => {
    gw = await startGateway({ channels: channels(), models: [NO_TOOLS_MODEL] });
    // About 6,000 tokens of text: more than the first channel's 4,096.
    const long = 'lorem ipsum dolor sit amet '.repeat(1_200);
    const { response } = await client()
      .chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: long }] })
      .withResponse();
    expect(response.headers.get('x-gengate-channel')).toBe('second');
    expect(first.requests).toHaveLength(0);
  });
});
