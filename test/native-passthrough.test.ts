/**
 * Native features reach a same-dialect upstream: on pass-through the gateway reads only what
 * it needs from the request (model, stream, document sizes), so what its canonical form lacks
 * — OpenAI `n: 2`, Anthropic server tools — is the upstream's to answer, through the official SDKs.
 */
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAKE_SEARCH_RESULT, startFakeAnthropicUpstream, type FakeAnthropicUpstream } from './fakes/fake-anthropic-upstream.js';
import { startFakeOpenAIUpstream, type FakeOpenAIUpstream } from './fakes/fake-openai-upstream.js';
import { anthropicUpChannel, openaiUpChannel } from './helpers/fake-channels.js';
import { startGateway, type RunningGateway } from './helpers/start-gateway.js';

let openaiUp: FakeOpenAIUpstream;
let anthropicUp: FakeAnthropicUpstream;
let gw: RunningGateway;

beforeAll(async () => {
  [openaiUp, anthropicUp] = await Promise.all([startFakeOpenAIUpstream(), startFakeAnthropicUpstream()]);
  gw = await startGateway({
    channels: [openaiUpChannel(openaiUp), anthropicUpChannel(anthropicUp)],
  });
});
afterAll(async () => {
  await gw.close();
  await Promise.all([openaiUp.close(), anthropicUp.close()]);
});

describe('OpenAI n: 2 on pass-through', () => {
  const openai = () => new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: gw.key, maxRetries: 0 });
  const params = { model: 'textmodel-b-4o-mini', messages: [{ role: 'user' as const, content: 'two answers' }], n: 2 };

  it('answers two choices', async () => {
    const { data, response } = await openai().chat.completions.create(params).withResponse();
    expect(openaiUp.requests.at(-1)!.body!.n).toBe(2);
    expect(response.headers.get('x-gengate-route')).toBe('passthrough');
    expect(data.model).toBe('textmodel-b-4o-mini');
    expect(data.choices.map((choice) => [choice.index, choice.message.content])).toEqual([
      [0, 'You said: two answers'],
      [1, 'You said: two answers'],
    ]);
    expect(data.usage?.completion_tokens).toBe(8);
  });

  it('streams two choices', async () => {
    const stream = await openai().chat.completions.create({ ...params, stream: true });
    const texts = ['', ''];
    for await (const chunk of stream) for (const choice of chunk.choices) texts[choice.index] += choice.delta.content ?? '';
    expect(texts).toEqual(['You said: two answers', 'You said: two answers']);
  });
});

describe('Anthropic server tools on pass-through', () => {
  const anthropic = () => new Anthropic({ baseURL: gw.url, apiKey: gw.key, maxRetries: 0 });
  const params: Anthropic.MessageCreateParamsNonStreaming = {
    model: 'textmodel-a-sonnet-4-5',
    max_tokens: 256,
    messages: [{ role: 'user', content: 'what is new today?' }],
    tools: [{ type: 'web_search_20250305', name: 'web_search', max_uses: 1 }],
  };

  it('reaches the upstream, whose server_tool_use and search result come back', async () => {
    const { data, response } = await anthropic().messages.create(params).withResponse();
    expect((anthropicUp.requests.at(-1)!.body as { tools: unknown }).tools).toEqual(params.tools);
    expect(response.headers.get('x-gengate-route')).toBe('passthrough');
    expect(data.model).toBe('textmodel-a-sonnet-4-5');
    expect(data.content.map((block) => block.type)).toEqual(['server_tool_use', 'web_search_tool_result', 'text']);
    const [use, result] = data.content as [Anthropic.ServerToolUseBlock, Anthropic.WebSearchToolResultBlock];
    expect(use.input).toEqual({ query: 'what is new today?' });
    expect(result.content).toEqual([FAKE_SEARCH_RESULT]);
    expect(data.usage.server_tool_use?.web_search_requests).toBe(1);
  });

  it('streams them too', async () => {
    const message = await anthropic().messages.stream(params).finalMessage();
    expect(message.content.map((block) => block.type)).toEqual(['server_tool_use', 'web_search_tool_result', 'text']);
    expect((message.content[0] as Anthropic.ServerToolUseBlock).input).toEqual({ query: 'what is new today?' });
    expect(message.usage.server_tool_use?.web_search_requests).toBe(1);
  });
});
