/**
 * Translation on what real upstreams send, replayed byte for byte by the fakes: parallel tool
 * calls whose argument deltas interleave, refusals, and multi-byte characters cut across TCP
 * reads — each through the official SDK of the client's dialect.
 */
import type Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  anthropicRefusal,
  anthropicSplitUtf8,
  geminiSplitUtf8,
  MULTIBYTE_TEXT,
  openaiInterleavedToolCalls,
  openaiRefusal,
  openaiSplitUtf8,
  REFUSAL_TEXT,
} from './fakes/upstream-scripts.js';
import { anthropicUpChannel, type FakeUpstreams, geminiUpChannel, openaiUpChannel, startFakeUpstreams } from './helpers/fake-channels.js';
import { gatewayClients } from './helpers/sdk-clients.js';
import { startGateway, type RunningGateway } from './helpers/start-gateway.js';

let fakes: FakeUpstreams;
let gw: RunningGateway;

const OPENAI_MODEL = 'textmodel-b-4o';
const ANTHROPIC_MODEL = 'textmodel-a-sonnet-4-20250514';
const GEMINI_MODEL = 'textmodel-c-2.5-flash';
const WEATHER = {
  name: 'get_weather',
  description: 'Weather for a city',
  input_schema: { type: 'object' as const, properties: { city: { type: 'string' } }, required: ['city'] },
};

beforeAll(async () => {
  fakes = await startFakeUpstreams();
  gw = await startGateway({
    channels: [
      // The public ids reach the fakes as they are: no rewrite.
      openaiUpChannel(fakes.openai, { models: [OPENAI_MODEL], modelRewrite: [] }),
      anthropicUpChannel(fakes.anthropic, { models: [ANTHROPIC_MODEL], modelRewrite: [] }),
      geminiUpChannel(fakes.gemini, { models: [GEMINI_MODEL], modelRewrite: [] }),
    ],
  });
});
afterAll(async () => {
  await gw.close();
  await fakes.close();
});

const { anthropic, openai, gemini } = gatewayClients(() => gw);

describe('interleaved parallel tool-call deltas from an OpenAI upstream', () => {
  it('reach an Anthropic client as one complete block after another', async () => {
    fakes.openai.replayNext(openaiInterleavedToolCalls('gpt-4o'));
    const stream = anthropic().messages.stream({
      model: OPENAI_MODEL,
      max_tokens: 200,
      tools: [WEATHER],
      messages: [{ role: 'user', content: 'Weather in Paris and Tokyo?' }],
    });
    const wire: Array<{ type: string; index?: number }> = [];
    const jsonByBlock = new Map<number, string>();
    const finished: Anthropic.ContentBlock[] = [];
    stream.on('streamEvent', (event) => wire.push({ type: event.type, index: 'index' in event ? event.index : undefined }));
    stream.on('inputJson', (_delta, snapshot) => jsonByBlock.set(wire.at(-1)!.index!, JSON.stringify(snapshot)));
    stream.on('contentBlock', (block) => finished.push(block));
    const message = await stream.finalMessage();

    expect(message.stop_reason).toBe('tool_use');
    expect(message.content).toEqual([
      { type: 'tool_use', id: 'toolu_call_paris', name: 'get_weather', input: { city: 'Paris' } },
      { type: 'tool_use', id: 'toolu_call_tokyo', name: 'get_weather', input: { city: 'Tokyo' } },
    ]);
    // A block finalised at its content_block_stop already has its whole input.
    expect(finished).toEqual(message.content);
    expect(jsonByBlock).toEqual(
      new Map([
        [0, '{"city":"Paris"}'],
        [1, '{"city":"Tokyo"}'],
      ]),
    );
    // Strictly one block after another: every delta belongs to the block opened last and not yet stopped.
    let open: number | undefined;
    for (const event of wire) {
      if (event.type === 'content_block_start') {
        expect(open).toBeUndefined();
        open = event.index;
      } else if (event.type === 'content_block_delta') expect(event.index).toBe(open);
      else if (event.type === 'content_block_stop') {
        expect(event.index).toBe(open);
        open = undefined;
      }
    }
  });

  it('the toolu_ ids the Anthropic client got come back consistently to the OpenAI upstream', async () => {
    await anthropic().messages.create({
      model: OPENAI_MODEL,
      max_tokens: 200,
      tools: [WEATHER],
      messages: [
        { role: 'user', content: 'Weather in Paris?' },
        { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_call_paris', name: 'get_weather', input: { city: 'Paris' } }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_call_paris', content: '18°C' }] },
      ],
    });
    const body = fakes.openai.requests.at(-1)!.body as { messages: Array<{ role: string; tool_calls?: Array<{ id: string }>; tool_call_id?: string }> };
    expect(body.messages[1].tool_calls![0].id).toBe('toolu_call_paris');
    expect(body.messages[2]).toMatchObject({ role: 'tool', tool_call_id: 'toolu_call_paris' });
  });

  it('reach a Gemini client as two complete functionCall parts', async () => {
    fakes.openai.replayNext(openaiInterleavedToolCalls('gpt-4o'));
    const calls: Array<{ name?: string; args?: unknown }> = [];
    const stream = await gemini().models.generateContentStream({
      model: OPENAI_MODEL,
      contents: 'Weather in Paris and Tokyo?',
      config: { tools: [{ functionDeclarations: [{ name: 'get_weather', parametersJsonSchema: WEATHER.input_schema }] }] },
    });
    for await (const chunk of stream) for (const call of chunk.functionCalls ?? []) calls.push({ name: call.name, args: call.args });
    expect(calls).toEqual([
      { name: 'get_weather', args: { city: 'Paris' } },
      { name: 'get_weather', args: { city: 'Tokyo' } },
    ]);
  });
});

describe('refusals', () => {
  it('an OpenAI refusal reaches an Anthropic client as stop_reason refusal with its text', async () => {
    fakes.openai.replayNext(openaiRefusal('gpt-4o'));
    const message = await anthropic()
      .messages.stream({ model: OPENAI_MODEL, max_tokens: 100, messages: [{ role: 'user', content: 'Something forbidden' }] })
      .finalMessage();
    expect(message.stop_reason).toBe('refusal');
    expect(message.content).toEqual([{ type: 'text', text: REFUSAL_TEXT }]);
  });

  it('an Anthropic refusal reaches an OpenAI client as finish_reason content_filter', async () => {
    fakes.anthropic.replayNext(anthropicRefusal('claude-sonnet-4-20250514'));
    const stream = await openai().chat.completions.create({
      model: ANTHROPIC_MODEL,
      stream: true,
      messages: [{ role: 'user', content: 'Something forbidden' }],
    });
    let text = '';
    let finish: string | null = null;
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta.content ?? '';
      finish = chunk.choices[0]?.finish_reason ?? finish;
    }
    expect(text).toBe(REFUSAL_TEXT);
    expect(finish).toBe('content_filter');
  });

  it('an Anthropic refusal reaches a Gemini client as finishReason SAFETY', async () => {
    fakes.anthropic.replayNext(anthropicRefusal('claude-sonnet-4-20250514'));
    let finish: string | undefined;
    for await (const chunk of await gemini().models.generateContentStream({ model: ANTHROPIC_MODEL, contents: 'Something forbidden' })) {
      finish = chunk.candidates?.[0]?.finishReason ?? finish;
    }
    expect(finish).toBe('SAFETY');
  });
});

describe('multi-byte characters cut across TCP reads', () => {
  it('OpenAI upstream → Anthropic client', async () => {
    fakes.openai.replayNext(openaiSplitUtf8('gpt-4o'));
    let text = '';
    const stream = anthropic().messages.stream({ model: OPENAI_MODEL, max_tokens: 100, messages: [{ role: 'user', content: 'Greet me' }] });
    stream.on('text', (delta) => {
      text += delta;
    });
    await stream.finalMessage();
    expect(text).toBe(MULTIBYTE_TEXT);
  });

  it('OpenAI upstream → OpenAI client (pass-through)', async () => {
    fakes.openai.replayNext(openaiSplitUtf8('gpt-4o'));
    const { data: stream, response } = await openai()
      .chat.completions.create({ model: OPENAI_MODEL, stream: true, messages: [{ role: 'user', content: 'Greet me' }] })
      .withResponse();
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
    expect(response.headers.get('x-gengate-route')).toBe('passthrough');
    expect(text).toBe(MULTIBYTE_TEXT);
  });

  it('Anthropic upstream → Gemini client', async () => {
    fakes.anthropic.replayNext(anthropicSplitUtf8('claude-sonnet-4-20250514'));
    let text = '';
    for await (const chunk of await gemini().models.generateContentStream({ model: ANTHROPIC_MODEL, contents: 'Greet me' })) text += chunk.text ?? '';
    expect(text).toBe(MULTIBYTE_TEXT);
  });

  it('Gemini upstream → OpenAI client', async () => {
    fakes.gemini.replayNext(geminiSplitUtf8('gemini-2.5-flash'));
    const stream = await openai().chat.completions.create({ model: GEMINI_MODEL, stream: true, messages: [{ role: 'user', content: 'Greet me' }] });
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
    expect(text).toBe(MULTIBYTE_TEXT);
  });
});

describe('tool_use ids minted by the sandbox', () => {
  it('look like Anthropic ids for an Anthropic client, streamed or not', async () => {
    const model = 'textmodel-a-haiku-4-5-20251001';
    const ask = { model, max_tokens: 300, tools: [WEATHER], tool_choice: { type: 'any' as const }, messages: [{ role: 'user' as const, content: 'Weather?' }] };
    const whole = await anthropic().messages.create(ask);
    const streamed = await anthropic().messages.stream(ask).finalMessage();
    for (const message of [whole, streamed]) {
      const call = message.content.find((block) => block.type === 'tool_use');
      expect(call?.id).toMatch(/^toolu_[A-Za-z0-9_-]+$/);
    }
  });
});
