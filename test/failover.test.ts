/**
 * Routing across channels with real HTTP upstreams: failover before the first byte, priority
 * tiers, client errors returned at once, circuit breaking, and the sandbox never standing in
 * for a configured upstream.
 */
import OpenAI from 'openai';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { FAKE_OPENAI_API_KEY, startFakeOpenAIUpstream, type FakeOpenAIUpstream } from './fakes/fake-openai-upstream.js';
import { startGateway, type ChannelSpec, type RunningGateway } from './helpers/start-gateway.js';

let primary: FakeOpenAIUpstream;
let backup: FakeOpenAIUpstream;
let gw: RunningGateway | undefined;

beforeAll(async () => {
  primary = await startFakeOpenAIUpstream();
  backup = await startFakeOpenAIUpstream();
});
afterAll(async () => {
  await primary.close();
  await backup.close();
});
afterEach(async () => {
  await gw?.close();
  gw = undefined;
  primary.requests.length = 0;
  backup.requests.length = 0;
});

function channels(primaryModel: string, extra: Partial<ChannelSpec> = {}): ChannelSpec[] {
  return [
    {
      name: 'primary',
      provider: 'openai',
      baseUrl: primary.url,
      apiKey: FAKE_OPENAI_API_KEY,
      models: ['textmodel-b-*'],
      modelMap: { 'textmodel-b-4o': primaryModel },
      priority: 10,
      ...extra,
    },
    {
      name: 'backup',
      provider: 'openai',
      baseUrl: backup.url,
      apiKey: FAKE_OPENAI_API_KEY,
      models: ['textmodel-b-*'],
      modelRewrite: [{ from: 'textmodel-b-', to: 'gpt-' }],
      priority: 0,
    },
  ];
}

const client = () => new OpenAI({ baseURL: `${gw!.url}/v1`, apiKey: gw!.key, maxRetries: 0 });
const request = { model: 'textmodel-b-4o', messages: [{ role: 'user' as const, content: 'ping' }] };

function ask() {
  return client().chat.completions.create(request).withResponse();
}

function askStream() {
  return client()
    .chat.completions.create({ ...request, stream: true })
    .withResponse();
}

describe('failover', () => {
  it('uses the higher-priority channel while it works', async () => {
    gw = await startGateway({ channels: channels('gpt-4o') });
    const { data, response } = await ask();
    expect(response.headers.get('x-gengate-channel')).toBe('primary');
    expect(data.choices[0].message.content).toBe('You said: ping');
    expect(primary.requests).toHaveLength(1);
    expect(backup.requests).toHaveLength(0);
  });

  it.each(['fail-500', 'fail-503', 'fail-429', 'fail-401'])('moves to the next channel when the first answers %s', async (scenario) => {
    gw = await startGateway({ channels: channels(scenario) });
    const { data, response } = await ask();
    expect(response.headers.get('x-gengate-channel')).toBe('backup');
    expect(data.choices[0].message.content).toBe('You said: ping');
    expect(primary.requests).toHaveLength(1);
    expect(backup.requests).toHaveLength(1);
    expect(backup.requests[0].body!.model).toBe('gpt-4o');
  });

  it('fails over a stream before its first byte', async () => {
    gw = await startGateway({ channels: channels('fail-500') });
    const { data: stream, response } = await askStream();
    expect(response.headers.get('x-gengate-channel')).toBe('backup');
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
    expect(text).toBe('You said: ping');
  });

  it('moves on when a channel cannot be reached at all', async () => {
    gw = await startGateway({ channels: channels('gpt-4o', { baseUrl: 'http://127.0.0.1:1/v1' }) });
    const { response } = await ask();
    expect(response.headers.get('x-gengate-channel')).toBe('backup');
  });

  it('returns a client error at once, without trying other channels', async () => {
    gw = await startGateway({ channels: channels('fail-400') });
    const error = await ask().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect(backup.requests).toHaveLength(0);
  });

  it('answers with the last error when every channel fails, in the surface shape', async () => {
    gw = await startGateway({
      channels: [
        {
          name: 'only',
          provider: 'openai',
          baseUrl: primary.url,
          apiKey: FAKE_OPENAI_API_KEY,
          models: ['textmodel-b-4o'],
          modelMap: { 'textmodel-b-4o': 'fail-503' },
        },
      ],
    });
    const error = (await ask().catch((e: unknown) => e)) as InstanceType<typeof OpenAI.APIError>;
    expect(error).toBeInstanceOf(OpenAI.APIError);
    expect(error.status).toBe(503);
    // The sandbox does not stand in for a configured upstream that failed.
    expect(primary.requests).toHaveLength(1);
  });

  it('opens the circuit of a channel that keeps failing and stops sending it traffic', async () => {
    gw = await startGateway({ channels: channels('fail-500'), router: { failureThreshold: 2, cooldownMs: 60_000 } });
    for (let i = 0; i < 5; i++) {
      const { response } = await ask();
      expect(response.headers.get('x-gengate-channel')).toBe('backup');
    }
    expect(primary.requests).toHaveLength(2);
    expect(backup.requests).toHaveLength(5);
  });

  it('never sends traffic to a disabled channel', async () => {
    gw = await startGateway({ channels: channels('gpt-4o', { enabled: false }) });
    await ask();
    await ask();
    expect(primary.requests).toHaveLength(0);
    expect(backup.requests).toHaveLength(2);
  });
});
