/**
 * `tool_choice: none` on Bedrock Converse, which has no `none`, through the official SDKs
 * against the fake Bedrock runtime (fakes/fake-bedrock.ts). The fake's model calls the first tool
 * it is offered whenever the last turn is not a tool result, and it enforces Converse's rule that
 * a conversation holding `toolUse` / `toolResult` blocks needs a `toolConfig` with at least one
 * tool: `none` must neither offer the client's tools nor break that rule.
 */
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeAnthropicUpstream, startFakeAnthropicUpstream } from './fakes/fake-anthropic-upstream.js';
import { BEDROCK_CHANNEL_KEY, BEDROCK_REGION, type FakeBedrock, startFakeBedrock } from './fakes/fake-bedrock.js';
import { type RunningGateway, startGateway } from './helpers/start-gateway.js';

let anthropic: FakeAnthropicUpstream;
let bedrock: FakeBedrock;
let gw: RunningGateway;

const CLAUDE_PROFILE = 'us.anthropic.claude-sonnet-4-5-20250929-v1:0';
const WEATHER_TOOL = {
  type: 'function' as const,
  function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } },
};

beforeAll(async () => {
  anthropic = await startFakeAnthropicUpstream();
  bedrock = await startFakeBedrock({ anthropic: anthropic.url });
  gw = await startGateway({
    channels: [
      {
        name: 'bedrock-converse',
        provider: 'bedrock',
        baseUrl: bedrock.url,
        apiKey: BEDROCK_CHANNEL_KEY,
        models: ['claude-sonnet-4-5'],
        modelMap: { 'claude-sonnet-4-5': CLAUDE_PROFILE },
        options: { region: BEDROCK_REGION },
      },
    ],
  });
});
afterAll(async () => {
  await gw?.close();
  await bedrock?.close();
  await anthropic?.close();
});

const toolHistory: OpenAI.ChatCompletionMessageParam[] = [
  { role: 'user', content: 'Weather in Paris?' },
  {
    role: 'assistant',
    content: null,
    tool_calls: [{ id: 'tooluse_fake0001', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }],
  },
  { role: 'tool', tool_call_id: 'tooluse_fake0001', content: '18°C and sunny' },
];

describe('tool_choice none on Converse', () => {
  it('with no tool blocks in the conversation: no toolConfig, so the model answers in text, whole and streamed', async () => {
    const client = new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: gw.key, maxRetries: 0 });
    const asked = {
      model: 'claude-sonnet-4-5',
      messages: [{ role: 'user' as const, content: 'Weather in Paris?' }],
      tools: [WEATHER_TOOL],
      tool_choice: 'none' as const,
    };
    const answer = await client.chat.completions.create(asked).withResponse();
    expect(answer.data.choices[0].message.tool_calls ?? []).toEqual([]);
    expect(answer.data.choices[0].message.content).toBe(`Hello from ${CLAUDE_PROFILE}. You said: Weather in Paris?`);
    expect(answer.data.choices[0].finish_reason).toBe('stop');
    expect(answer.response.headers.get('x-gengate-warnings') ?? '').not.toContain('tool_choice');
    expect(bedrock.calls.at(-1)!.body).not.toHaveProperty('toolConfig');

    let text = '';
    let toolDeltas = 0;
    for await (const chunk of await client.chat.completions.create({ ...asked, stream: true })) {
      text += chunk.choices[0]?.delta.content ?? '';
      toolDeltas += chunk.choices[0]?.delta.tool_calls?.length ?? 0;
    }
    expect(text).toBe(`Hello from ${CLAUDE_PROFILE}. You said: Weather in Paris?`);
    expect(toolDeltas).toBe(0);
    expect(bedrock.calls.at(-1)!.body).not.toHaveProperty('toolConfig');
  });

  it('after a tool call and its result: only a placeholder tool is declared, as Converse requires, with a warning', async () => {
    const client = new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: gw.key, maxRetries: 0 });
    const answer = await client.chat.completions
      .create({ model: 'claude-sonnet-4-5', messages: toolHistory, tools: [WEATHER_TOOL], tool_choice: 'none' })
      .withResponse();
    expect(answer.data.choices[0].message.content).toContain('the tool answered');
    expect(answer.response.headers.get('x-gengate-warnings')).toContain('tool_choice: none has no Converse counterpart');
    const sent = bedrock.calls.at(-1)!.body as { toolConfig: { tools: Array<{ toolSpec: { name: string } }>; toolChoice?: unknown } };
    expect(sent.toolConfig.tools.map((tool) => tool.toolSpec.name)).toEqual(['gengate_no_tool']);
    expect(sent.toolConfig).not.toHaveProperty('toolChoice');
  });

  it('a call of the placeholder by the model is dropped, whole and streamed, and the finish is a plain stop', async () => {
    const client = new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: gw.key, maxRetries: 0 });
    // A new question after the tool result: the fake's model calls the first tool it is offered.
    const asked = {
      model: 'claude-sonnet-4-5',
      messages: [...toolHistory, { role: 'assistant' as const, content: 'It is 18°C.' }, { role: 'user' as const, content: 'And tomorrow?' }],
      tools: [WEATHER_TOOL],
      tool_choice: 'none' as const,
    };
    const answer = await client.chat.completions.create(asked).withResponse();
    expect(bedrock.calls.at(-1)!.body).toHaveProperty('toolConfig.tools.0.toolSpec.name', 'gengate_no_tool');
    expect(answer.data.choices[0].message.tool_calls ?? []).toEqual([]);
    expect(answer.data.choices[0].message.content).toBe('Let me check.');
    expect(answer.data.choices[0].finish_reason).toBe('stop');
    expect(answer.response.headers.get('x-gengate-warnings')).toContain('the model called the placeholder tool anyway');

    let text = '';
    let toolDeltas = 0;
    let finish: string | null | undefined;
    for await (const chunk of await client.chat.completions.create({ ...asked, stream: true })) {
      text += chunk.choices[0]?.delta.content ?? '';
      toolDeltas += chunk.choices[0]?.delta.tool_calls?.length ?? 0;
      finish = chunk.choices[0]?.finish_reason ?? finish;
    }
    expect(bedrock.calls.at(-1)!.rawPath).toMatch(/\/converse-stream$/);
    expect(text).toBe('Let me check.');
    expect(toolDeltas).toBe(0);
    expect(finish).toBe('stop');
  });

  it('tool blocks without any tools offered still satisfy Converse (the fake refuses a conversation with tool blocks and no toolConfig)', async () => {
    const client = new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: gw.key, maxRetries: 0 });
    const answer = await client.chat.completions.create({ model: 'claude-sonnet-4-5', messages: toolHistory });
    expect(answer.choices[0].message.content).toContain('the tool answered');
    expect(bedrock.calls.at(-1)!.body).toHaveProperty('toolConfig.tools.0.toolSpec.name', 'gengate_no_tool');
  });

  it("an Anthropic client's tool_choice none is honoured the same way", async () => {
    const client = new Anthropic({ baseURL: gw.url, apiKey: gw.key, maxRetries: 0 });
    const tools = [{ name: 'get_weather', input_schema: { type: 'object' as const, properties: { city: { type: 'string' } } } }];
    const answer = await client.messages.create({
      model: 'claude-sonnet-4-5',
      max_tokens: 50,
      tools,
      tool_choice: { type: 'none' },
      messages: [{ role: 'user', content: 'Weather in Paris?' }],
    });
    expect(answer.content.map((block) => block.type)).toEqual(['text']);
    expect(answer.stop_reason).toBe('end_turn');
    expect(bedrock.calls.at(-1)!.body).not.toHaveProperty('toolConfig');

    const followUp = await client.messages.create({
      model: 'claude-sonnet-4-5',
      max_tokens: 50,
      tools,
      tool_choice: { type: 'none' },
      messages: [
        { role: 'user', content: 'Weather in Paris?' },
        { role: 'assistant', content: [{ type: 'tool_use', id: 'tooluse_fake0001', name: 'get_weather', input: { city: 'Paris' } }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'tooluse_fake0001', content: '18°C' }] },
      ],
    });
    expect(followUp.content[0]).toMatchObject({ type: 'text', text: expect.stringContaining('the tool answered') });
    expect(bedrock.calls.at(-1)!.body).toHaveProperty('toolConfig.tools', [
      expect.objectContaining({ toolSpec: expect.objectContaining({ name: 'gengate_no_tool' }) }),
    ]);
  });
});
