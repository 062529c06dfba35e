/**
 * OpenAI pass-through relays what the upstream would have sent the client itself: the gateway
 * asks for the usage chunk to meter every stream, but a client that did not ask for it gets
 * the bytes of a stream without it (no `"usage":null`, no usage-only chunk). The only change
 * is the model, named as the client asked for it; the fake names the model it was sent, so
 * asking the fake directly with the public id gives the expected bytes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAKE_OPENAI_API_KEY, startFakeOpenAIUpstream, type FakeOpenAIUpstream } from './fakes/fake-openai-upstream.js';
import { openaiUpChannel } from './helpers/fake-channels.js';
import { startGateway, type RunningGateway } from './helpers/start-gateway.js';

const MODEL = 'textmodel-b-4o-mini';
let upstream: FakeOpenAIUpstream;
let gw: RunningGateway;

beforeAll(async () => {
  upstream = await startFakeOpenAIUpstream();
  gw = await startGateway({
    channels: [openaiUpChannel(upstream)],
  });
});
afterAll(async () => {
  await gw.close();
  await upstream.close();
});

async function post(url: string, key: string, body: object): Promise<{ text: string; headers: Headers }> {
  const response = await fetch(`${url}/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(response.status).toBe(200);
  return { text: await response.text(), headers: response.headers };
}

/** Completion and tool-call ids count requests on the fake; everything else must be identical. */
const sameIds = (text: string) => text.replace(/chatcmpl-fake\d+/g, 'chatcmpl-fakeN').replace(/call_fake\d+_/g, 'call_fakeN_');

const weatherTool = {
  type: 'function',
  function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' }, days: { type: 'integer' } } } },
};

describe('OpenAI pass-through bytes', () => {
  it.each([
    ['text, without include_usage', { messages: [{ role: 'user', content: 'say "usage":null, please' }], stream: true }],
    ['text, with include_usage', { messages: [{ role: 'user', content: 'count me' }], stream: true, stream_options: { include_usage: true } }],
    ['a tool call, without include_usage', { messages: [{ role: 'user', content: 'weather?' }], stream: true, tools: [weatherTool] }],
    [
      'a tool call, with include_usage',
      { messages: [{ role: 'user', content: 'weather?' }], stream: true, tools: [weatherTool], stream_options: { include_usage: true } },
    ],
    ['a JSON answer', { messages: [{ role: 'user', content: 'whole answer' }] }],
  ])('%s: the client gets the bytes the upstream sends for the same request', async (_name, request) => {
    const body = { model: MODEL, ...request };
    const viaGateway = await post(`${gw.url}/v1`, gw.key, body);
    const sent = upstream.requests.at(-1)!.body!;
    if ('stream' in request) expect(sent.stream_options).toEqual({ include_usage: true });
    const direct = await post(upstream.url, FAKE_OPENAI_API_KEY, body);
    expect(sameIds(viaGateway.text)).toBe(sameIds(direct.text));
    expect(viaGateway.headers.get('x-gengate-route')).toBe('passthrough');
  });

  it('names the public model where the upstream named its own', async () => {
    const { text } = await post(`${gw.url}/v1`, gw.key, { model: MODEL, messages: [{ role: 'user', content: 'hi' }], stream: true });
    expect(text).toContain(`"model":"${MODEL}"`);
    expect(text).not.toContain('"model":"gpt-4o-mini"');
  });

  it('keeps the gateway request id and shows the upstream one beside it', async () => {
    const { headers } = await post(`${gw.url}/v1`, gw.key, { model: MODEL, messages: [{ role: 'user', content: 'ids' }] });
    expect(headers.get('x-gengate-upstream-request-id')).toMatch(/^req_fake\d+$/);
    expect(headers.get('x-request-id')).toMatch(/^req_/);
    expect(headers.get('x-request-id')).not.toBe(headers.get('x-gengate-upstream-request-id'));
  });
});
