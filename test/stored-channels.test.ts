/**
 * Channels stored in the database reach a running gateway without a restart: added, routed to,
 * and removed again, with the configured channels untouched.
 */
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { channelDefaults } from '../src/config/defaults.js';
import { FAKE_OPENAI_API_KEY, startFakeOpenAIUpstream, type FakeOpenAIUpstream } from './fakes/fake-openai-upstream.js';
import { startGateway, type RunningGateway } from './helpers/start-gateway.js';

let upstream: FakeOpenAIUpstream;
let gw: RunningGateway;

beforeAll(async () => {
  upstream = await startFakeOpenAIUpstream();
  gw = await startGateway({ media: {}, secretKey: Buffer.alloc(32, 7).toString('base64') });
});
afterAll(async () => {
  await gw.close();
  await upstream.close();
});

async function ask() {
  const client = new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: gw.key, maxRetries: 0 });
  return client.chat.completions.create({ model: 'textmodel-b-4o', messages: [{ role: 'user', content: 'ping' }] }).withResponse();
}

describe('stored channels', () => {
  it('are put in force when the channels invalidation is published, and taken out again', async () => {
    const before = await ask();
    expect(before.response.headers.get('x-gengate-channel')).toBe('sandbox');

    await gw.gateway.channels.insert({
      ...channelDefaults(),
      name: 'stored-openai',
      provider: 'openai',
      baseUrl: upstream.url,
      apiKey: FAKE_OPENAI_API_KEY,
      models: ['textmodel-b-*'],
      modelRewrite: [{ from: 'textmodel-b-', to: 'gpt-' }],
    });
    gw.gateway.invalidation.publish('channels');
    await expect.poll(() => gw.gateway.registry.channels.map((c) => c.name)).toContain('stored-openai');

    const routed = await ask();
    expect(routed.response.headers.get('x-gengate-channel')).toBe('stored-openai');
    expect(routed.response.headers.get('x-gengate-simulated')).toBeNull();
    expect(upstream.requests.at(-1)?.body).toMatchObject({ model: 'gpt-4o' });

    await gw.gateway.channels.delete('stored-openai');
    gw.gateway.invalidation.publish('channels');
    await expect.poll(() => gw.gateway.registry.channels.map((c) => c.name)).not.toContain('stored-openai');
    const after = await ask();
    expect(after.response.headers.get('x-gengate-channel')).toBe('sandbox');
  });
});
