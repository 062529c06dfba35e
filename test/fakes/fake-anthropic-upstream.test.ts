import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAKE_ANTHROPIC_KEY, FAKE_SEARCH_RESULT, startFakeAnthropicUpstream, type FakeAnthropicUpstream } from './fake-anthropic-upstream.js';

// The official SDK against the fake: if the SDK assembles the blocks, the fake speaks the wire format.
describe('fake Anthropic upstream: server tools', () => {
  let upstream: FakeAnthropicUpstream;
  let client: Anthropic;
  const params: Anthropic.MessageCreateParamsNonStreaming = {
    model: 'claude-sonnet-4-5',
    max_tokens: 100,
    messages: [{ role: 'user', content: 'news?' }],
    tools: [{ type: 'web_search_20250305', name: 'web_search' }],
  };

  beforeAll(async () => {
    upstream = await startFakeAnthropicUpstream();
    // The 1.x SDK sends its key as a bearer token; the fake, like the gateway's channels, reads x-api-key.
    client = new Anthropic({ baseURL: upstream.url, apiKey: FAKE_ANTHROPIC_KEY, defaultHeaders: { 'x-api-key': FAKE_ANTHROPIC_KEY }, maxRetries: 0 });
  });
  afterAll(() => upstream.close());

  it('runs a web search: server_tool_use, its result, then text', async () => {
    const message = await client.messages.create(params);
    expect(message.content.map((block) => block.type)).toEqual(['server_tool_use', 'web_search_tool_result', 'text']);
    expect((message.content[1] as Anthropic.WebSearchToolResultBlock).content).toEqual([FAKE_SEARCH_RESULT]);
    expect(message.usage.server_tool_use?.web_search_requests).toBe(1);
  });

  it('streams the same blocks', async () => {
    const message = await client.messages.stream(params).finalMessage();
    expect(message.content.map((block) => block.type)).toEqual(['server_tool_use', 'web_search_tool_result', 'text']);
    expect((message.content[0] as Anthropic.ServerToolUseBlock).input).toEqual({ query: 'news?' });
    expect(message.usage.server_tool_use?.web_search_requests).toBe(1);
  });
});

describe('fake Anthropic upstream: structured outputs', () => {
  let upstream: FakeAnthropicUpstream;
  let client: Anthropic;
  const ask = (schema: Record<string, unknown>) =>
    client.messages.create({
      model: 'claude-sonnet-4-5',
      max_tokens: 100,
      messages: [{ role: 'user', content: 'report' }],
      output_config: { format: { type: 'json_schema', schema } },
    });

  beforeAll(async () => {
    upstream = await startFakeAnthropicUpstream();
    client = new Anthropic({ baseURL: upstream.url, apiKey: FAKE_ANTHROPIC_KEY, defaultHeaders: { 'x-api-key': FAKE_ANTHROPIC_KEY }, maxRetries: 0 });
  });
  afterAll(() => upstream.close());

  it('answers a text block of JSON following the schema', async () => {
    const message = await ask({ type: 'object', properties: { city: { type: 'string' }, days: { type: 'integer' } }, additionalProperties: false });
    expect(JSON.parse((message.content[0] as Anthropic.TextBlock).text)).toEqual({ city: 'example', days: 42 });
  });

  it('refuses open objects and bounds it does not enforce, as the API does', async () => {
    await expect(ask({ type: 'object', properties: { city: { type: 'string' } } })).rejects.toThrow(/additionalProperties/);
    await expect(ask({ type: 'object', properties: { n: { type: 'integer', minimum: 1 } }, additionalProperties: false })).rejects.toThrow(/minimum/);
  });
});
