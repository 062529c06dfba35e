/**
 * Reasoning across dialects, through the official SDKs against the fake Anthropic upstream
 * (which, like the real API, signs its thinking, verifies signatures sent back, and refuses a
 * tool loop whose thinking was dropped): tool loops with thinking on from OpenAI and Gemini
 * clients, the client's token cap kept with the thinking budget inside it, the model's own
 * output limit when the client set none, and input tokens at message_start for Anthropic
 * clients of an OpenAI upstream.
 */
import Anthropic from '@anthropic-ai/sdk';
import { type Content, GoogleGenAI } from '@google/genai';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeAnthropicUpstream, type FakeAnthropicUpstream } from './fakes/fake-anthropic-upstream.js';
import { FAKE_OPENAI_API_KEY, startFakeOpenAIUpstream, type FakeOpenAIUpstream } from './fakes/fake-openai-upstream.js';
import { anthropicUpChannel, openaiUpChannel } from './helpers/fake-channels.js';
import type { AnthropicMessagesBody } from './helpers/json-bodies.js';
import { startGateway, type RunningGateway } from './helpers/start-gateway.js';

let anthropicUp: FakeAnthropicUpstream;
let openaiUp: FakeOpenAIUpstream;
let gw: RunningGateway;

const CLAUDE = 'textmodel-a-sonnet-4-20250514';
/** `outputTokenLimit` of CLAUDE in catalog/models.yaml. */
const CLAUDE_OUTPUT_LIMIT = 64000;

beforeAll(async () => {
  [anthropicUp, openaiUp] = await Promise.all([startFakeAnthropicUpstream(), startFakeOpenAIUpstream()]);
  gw = await startGateway({
    channels: [anthropicUpChannel(anthropicUp), openaiUpChannel(openaiUp)],
  });
});
afterAll(async () => {
  await gw.close();
  await Promise.all([anthropicUp.close(), openaiUp.close()]);
});

type SentBody = AnthropicMessagesBody & { thinking?: { type: string; budget_tokens?: number }; temperature?: number };
const lastBody = (): SentBody => anthropicUp.requests.at(-1)!.body as SentBody;
const openai = (): OpenAI => new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: gw.key, maxRetries: 0 });

const WEATHER: OpenAI.ChatCompletionTool = {
  type: 'function',
  function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } },
};

/** OpenAI's message shape plus the thinking extension gengate adds (docs/reasoning.md). */
type ThinkingMessage = OpenAI.ChatCompletionMessage & {
  reasoning_content?: string;
  thinking_blocks?: Array<{ type: string; thinking?: string; signature?: string; data?: string }>;
};

describe('an OpenAI client in a tool loop with reasoning_effort, on an Anthropic upstream', () => {
  it('gets signed thinking_blocks, echoes the message back, and the second turn keeps thinking on', async () => {
    const client = openai();
    const messages: OpenAI.ChatCompletionMessageParam[] = [{ role: 'user', content: 'Weather in Paris?' }];
    const first = await client.chat.completions.create({ model: CLAUDE, messages, tools: [WEATHER], reasoning_effort: 'high' });
    const message = first.choices[0].message as ThinkingMessage;
    expect(message.reasoning_content).toBe('The user needs get_weather, so I will call it.');
    expect(message.thinking_blocks).toEqual([{ type: 'thinking', thinking: message.reasoning_content, signature: expect.any(String) }]);
    expect(first.choices[0].finish_reason).toBe('tool_calls');

    // What agent loops do: push the assistant message as received, then the tool results.
    messages.push(message, { role: 'tool', tool_call_id: message.tool_calls![0].id, content: 'sunny, 21 °C' });
    const { data: second, response } = await client.chat.completions
      .create({ model: CLAUDE, messages, tools: [WEATHER], reasoning_effort: 'high' })
      .withResponse();
    expect(second.choices[0].finish_reason).toBe('stop');
    expect(response.headers.get('x-gengate-warnings')).toBeNull();
    const body = lastBody();
    expect(body.thinking).toEqual({ type: 'enabled', budget_tokens: 16384 });
    expect((body.messages[1].content as Array<{ type: string }>)[0]).toEqual({
      type: 'thinking',
      thinking: message.reasoning_content,
      signature: message.thinking_blocks![0].signature,
    });
  });

  it('does the same when streaming, with the SDK assembling the final message', async () => {
    const client = openai();
    const messages: OpenAI.ChatCompletionMessageParam[] = [{ role: 'user', content: 'Weather in Oslo?' }];
    const first = await client.chat.completions.stream({ model: CLAUDE, messages, tools: [WEATHER], reasoning_effort: 'medium' }).finalChatCompletion();
    const message = first.choices[0].message as ThinkingMessage;
    expect(message.thinking_blocks).toEqual([{ type: 'thinking', thinking: 'The user needs get_weather, so I will call it.', signature: expect.any(String) }]);
    messages.push(message, { role: 'tool', tool_call_id: message.tool_calls![0].id, content: 'snow' });
    const second = await client.chat.completions.stream({ model: CLAUDE, messages, tools: [WEATHER], reasoning_effort: 'medium' }).finalChatCompletion();
    expect(second.choices[0].finish_reason).toBe('stop');
    expect(lastBody().thinking).toEqual({ type: 'enabled', budget_tokens: 4096 });
  });

  it('still completes the loop when the client drops the thinking, with thinking off for that turn and a warning', async () => {
    const client = openai();
    const first = await client.chat.completions.create({
      model: CLAUDE,
      messages: [{ role: 'user', content: 'Weather in Rome?' }],
      tools: [WEATHER],
      reasoning_effort: 'low',
    });
    const call = first.choices[0].message.tool_calls![0] as OpenAI.ChatCompletionMessageFunctionToolCall;
    const { data: second, response } = await client.chat.completions
      .create({
        model: CLAUDE,
        messages: [
          { role: 'user', content: 'Weather in Rome?' },
          { role: 'assistant', content: null, tool_calls: [call] },
          { role: 'tool', tool_call_id: call.id, content: 'rain' },
        ],
        tools: [WEATHER],
        reasoning_effort: 'low',
      })
      .withResponse();
    expect(second.choices[0].finish_reason).toBe('stop');
    expect(lastBody().thinking).toBeUndefined();
    expect(response.headers.get('x-gengate-warnings')).toMatch(
      /thinking: left off for this request: the last assistant turn replays a tool call without its thinking block/,
    );
  });
});

describe('a Gemini client in a tool loop with thinking, on an Anthropic upstream', () => {
  const tools = [{ functionDeclarations: [{ name: 'get_weather', parametersJsonSchema: { type: 'object', properties: { city: { type: 'string' } } } }] }];
  const config = { tools, thinkingConfig: { thinkingBudget: 2048, includeThoughts: true } };

  it('gets the thought with its thoughtSignature, and the chat history sends it back', async () => {
    const ai = new GoogleGenAI({ apiKey: gw.key, httpOptions: { baseUrl: gw.url } });
    const chat = ai.chats.create({ model: CLAUDE, config });
    const first = await chat.sendMessage({ message: 'Weather in Lima?' });
    const parts = first.candidates![0].content!.parts!;
    expect(parts[0]).toEqual({ text: 'The user needs get_weather, so I will call it.', thought: true, thoughtSignature: expect.any(String) });
    const call = first.functionCalls![0];
    const second = await chat.sendMessage({ message: [{ functionResponse: { id: call.id, name: call.name!, response: { forecast: 'sunny' } } }] });
    expect(second.candidates![0].finishReason).toBe('STOP');
    const body = lastBody();
    expect(body.thinking).toEqual({ type: 'enabled', budget_tokens: 2048 });
    expect((body.messages[1].content as Array<{ type: string }>)[0]).toEqual({
      type: 'thinking',
      thinking: parts[0].text,
      signature: parts[0].thoughtSignature,
    });
  });

  it('round-trips a streamed thought too (one history entry per chunk, signature last)', async () => {
    const ai = new GoogleGenAI({ apiKey: gw.key, httpOptions: { baseUrl: gw.url } });
    const chat = ai.chats.create({ model: CLAUDE, config });
    let callId: string | undefined;
    for await (const chunk of await chat.sendMessageStream({ message: 'Weather in Quito?' })) callId ??= chunk.functionCalls?.[0]?.id;
    const history: Content[] = chat.getHistory();
    expect(history.filter((c) => c.parts?.some((p) => p.thoughtSignature)).length).toBe(1);
    for await (const _ of await chat.sendMessageStream({
      message: [{ functionResponse: { id: callId, name: 'get_weather', response: { forecast: 'cloudy' } } }],
    })) {
      // drain
    }
    const body = lastBody();
    expect(body.thinking).toEqual({ type: 'enabled', budget_tokens: 2048 });
    expect((body.messages[1].content as Array<{ type: string; thinking?: string }>)[0]).toMatchObject({
      type: 'thinking',
      thinking: 'The user needs get_weather, so I will call it.',
    });
  });
});

describe("the client's token cap with reasoning on", () => {
  it('OpenAI max_tokens 2000 with reasoning_effort high stays 2000, the budget shrinks inside it, and dropped temperature is reported', async () => {
    const { response } = await openai()
      .chat.completions.create({ model: CLAUDE, messages: [{ role: 'user', content: 'Hi' }], max_tokens: 2000, reasoning_effort: 'high', temperature: 0.3 })
      .withResponse();
    expect(lastBody()).toMatchObject({ max_tokens: 2000, thinking: { type: 'enabled', budget_tokens: 1024 } });
    expect(lastBody().temperature).toBeUndefined();
    const warnings = response.headers.get('x-gengate-warnings');
    expect(warnings).toContain('thinking: budget reduced from 16384 to 1024 tokens to fit max_tokens 2000');
    expect(warnings).toContain('temperature: dropped: Anthropic accepts only temperature 1 with thinking on');
  });

  it('Gemini maxOutputTokens 1000 with thinkingBudget 2048 stays 1000, with thinking off (no room for it)', async () => {
    const ai = new GoogleGenAI({ apiKey: gw.key, httpOptions: { baseUrl: gw.url } });
    await ai.models.generateContent({ model: CLAUDE, contents: 'Hi', config: { maxOutputTokens: 1000, thinkingConfig: { thinkingBudget: 2048 } } });
    expect(lastBody().max_tokens).toBe(1000);
    expect(lastBody().thinking).toBeUndefined();
  });

  it('Gemini maxOutputTokens 5000 with thinkingBudget 2048 is sent as is', async () => {
    const ai = new GoogleGenAI({ apiKey: gw.key, httpOptions: { baseUrl: gw.url } });
    await ai.models.generateContent({ model: CLAUDE, contents: 'Hi', config: { maxOutputTokens: 5000, thinkingConfig: { thinkingBudget: 2048 } } });
    expect(lastBody()).toMatchObject({ max_tokens: 5000, thinking: { type: 'enabled', budget_tokens: 2048 } });
  });

  it("a client without a cap gets the model's own output limit, not 4096", async () => {
    await openai().chat.completions.create({ model: CLAUDE, messages: [{ role: 'user', content: 'Hi' }] });
    expect(lastBody().max_tokens).toBe(CLAUDE_OUTPUT_LIMIT);
    const ai = new GoogleGenAI({ apiKey: gw.key, httpOptions: { baseUrl: gw.url } });
    await ai.models.generateContent({ model: CLAUDE, contents: 'Hi' });
    expect(lastBody().max_tokens).toBe(CLAUDE_OUTPUT_LIMIT);
  });
});

describe('an Anthropic client streaming from an OpenAI upstream', () => {
  it('reads a real input count at message_start (as count_tokens gives it), and the upstream numbers at the end', async () => {
    const client = new Anthropic({ baseURL: gw.url, apiKey: gw.key, maxRetries: 0 });
    const params = { model: 'textmodel-b-4o', max_tokens: 100, messages: [{ role: 'user' as const, content: 'Tell me about the sea, please.' }] };
    const stream = client.messages.stream(params);
    let startInput: number | undefined;
    stream.on('streamEvent', (event) => {
      if (event.type === 'message_start') startInput = event.message.usage.input_tokens;
    });
    const final = await stream.finalMessage();
    const counted = await client.messages.countTokens(params);
    expect(startInput).toBe(counted.input_tokens);
    expect(startInput).toBeGreaterThan(0);
    // The final usage is the upstream's own prompt_tokens, which the fake computes its own way.
    const upstream = await new OpenAI({ baseURL: openaiUp.url, apiKey: FAKE_OPENAI_API_KEY, maxRetries: 0 }).chat.completions.create({
      model: 'gpt-4o',
      max_tokens: 100,
      messages: params.messages,
    });
    expect(final.usage.input_tokens).toBe(upstream.usage!.prompt_tokens);
  });
});
