import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAKE_ANTHROPIC_KEY, startFakeAnthropicUpstream, type FakeAnthropicUpstream } from './fake-anthropic-upstream.js';

// The official SDK against the fake: the SDK assembles thinking blocks from the stream, and the
// fake holds replayed turns to the real API's thinking rules.
describe('fake Anthropic upstream: extended thinking', () => {
  let upstream: FakeAnthropicUpstream;
  let client: Anthropic;
  const tool: Anthropic.Tool = { name: 'get_weather', input_schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } };
  const ask: Anthropic.MessageParam = { role: 'user', content: 'Weather in Paris?' };
  const thinking = { type: 'enabled', budget_tokens: 1024 } as const;

  beforeAll(async () => {
    upstream = await startFakeAnthropicUpstream();
    client = new Anthropic({ baseURL: upstream.url, apiKey: FAKE_ANTHROPIC_KEY, defaultHeaders: { 'x-api-key': FAKE_ANTHROPIC_KEY }, maxRetries: 0 });
  });
  afterAll(() => upstream.close());

  it('streams a signed thinking block first, and accepts it back in the tool loop', async () => {
    const first = await client.messages.stream({ model: 'claude-fake-thinker', max_tokens: 4000, thinking, tools: [tool], messages: [ask] }).finalMessage();
    expect(first.content.map((block) => block.type)).toEqual(['thinking', 'text', 'tool_use']);
    const block = first.content[0] as Anthropic.ThinkingBlock;
    expect(block.thinking).toBe('The user needs get_weather, so I will call it.');
    expect(block.signature.length).toBeGreaterThan(20);
    const call = first.content[2] as Anthropic.ToolUseBlock;
    const second = await client.messages.create({
      model: 'claude-fake-thinker',
      max_tokens: 4000,
      thinking,
      tools: [tool],
      messages: [
        ask,
        { role: 'assistant', content: first.content },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: call.id, content: 'sunny' }] },
      ],
    });
    expect(second.content.map((b) => b.type)).toEqual(['thinking', 'text']);
  });

  it('refuses a tool loop whose thinking was dropped, like the real API', async () => {
    const replay: Anthropic.MessageParam[] = [
      ask,
      { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Paris' } }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'sunny' }] },
    ];
    const error = await client.messages
      .create({ model: 'claude-fake-thinker', max_tokens: 4000, thinking, tools: [tool], messages: replay })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Anthropic.BadRequestError);
    expect((error as Error).message).toContain('Expected `thinking` or `redacted_thinking`, but found `tool_use`');
    // Without thinking the same conversation is fine.
    await expect(client.messages.create({ model: 'claude-fake-thinker', max_tokens: 4000, tools: [tool], messages: replay })).resolves.toBeDefined();
  });

  it('refuses a thinking block whose signature it did not issue', async () => {
    const error = await client.messages
      .create({
        model: 'claude-fake-thinker',
        max_tokens: 4000,
        messages: [
          ask,
          {
            role: 'assistant',
            content: [
              { type: 'thinking', thinking: 'edited', signature: 'forged' },
              { type: 'text', text: 'Hi' },
            ],
          },
          { role: 'user', content: 'Go on' },
        ],
      })
      .catch((e: unknown) => e);
    expect((error as Error).message).toContain('Invalid `signature` in `thinking` block');
  });

  it('refuses sampling settings thinking does not allow', async () => {
    // The SDK's own types already forbid this combination; the fake must refuse it on the wire too.
    const params = { model: 'claude-fake-thinker', max_tokens: 4000, thinking, temperature: 0.2, messages: [ask] } as Anthropic.MessageCreateParamsNonStreaming;
    const error = await client.messages.create(params).catch((e: unknown) => e);
    expect((error as Error).message).toContain('`temperature` may only be set to 1 when thinking is enabled');
  });
});
