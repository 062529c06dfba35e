/**
 * Limits of the target upstream checked before sending (with an error that names whose limit
 * it is), and the error flag of a failed tool call carried across dialects — through the
 * official SDKs against the faithful fakes.
 */
import Anthropic from '@anthropic-ai/sdk';
import { ApiError } from '@google/genai';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anthropicUpChannel, type FakeUpstreams, geminiUpChannel, openaiUpChannel, startFakeUpstreams } from './helpers/fake-channels.js';
import { gatewayClients } from './helpers/sdk-clients.js';
import { startGateway, type RunningGateway } from './helpers/start-gateway.js';

let fakes: FakeUpstreams;
let gw: RunningGateway;

const OPENAI_MODEL = 'textmodel-b-4o';
const ANTHROPIC_MODEL = 'textmodel-a-sonnet-4-20250514';
const GEMINI_MODEL = 'textmodel-c-2.5-flash';

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
const lastBody = <T>(up: { requests: Array<{ body: unknown }> }) => up.requests.at(-1)!.body as T;

describe('stop sequences: each surface keeps its own limit, and the target is checked before sending', () => {
  it('5 Anthropic stop_sequences to an OpenAI model: 400 naming the target, nothing sent upstream', async () => {
    const before = fakes.openai.requests.length;
    const error = await anthropic()
      .messages.create({ model: OPENAI_MODEL, max_tokens: 50, stop_sequences: ['a', 'b', 'c', 'd', 'e'], messages: [{ role: 'user', content: 'Hi' }] })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Anthropic.BadRequestError);
    expect((error as InstanceType<typeof Anthropic.BadRequestError>).message).toContain(
      'stop: textmodel-b-4o (OpenAI) accepts at most 4 stop sequences, got 5',
    );
    expect(fakes.openai.requests.length).toBe(before);
  });

  it('6 Anthropic stop_sequences to a Gemini model: 400 naming Gemini’s limit of 5', async () => {
    const error = await anthropic()
      .messages.create({ model: GEMINI_MODEL, max_tokens: 50, stop_sequences: ['1', '2', '3', '4', '5', '6'], messages: [{ role: 'user', content: 'Hi' }] })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Anthropic.BadRequestError);
    expect((error as Error).message).toContain('textmodel-c-2.5-flash (Gemini) accepts at most 5 stop sequences, got 6');
  });

  it('5 Gemini stopSequences to a Gemini model pass; 4 Anthropic ones to an OpenAI model pass', async () => {
    await gemini().models.generateContent({ model: GEMINI_MODEL, contents: 'Hi', config: { stopSequences: ['1', '2', '3', '4', '5'] } });
    expect(lastBody<{ generationConfig: { stopSequences: string[] } }>(fakes.gemini).generationConfig.stopSequences).toHaveLength(5);
    await anthropic().messages.create({
      model: OPENAI_MODEL,
      max_tokens: 50,
      stop_sequences: ['a', 'b', 'c', 'd'],
      messages: [{ role: 'user', content: 'Hi' }],
    });
    expect(lastBody<{ stop: string[] }>(fakes.openai).stop).toEqual(['a', 'b', 'c', 'd']);
  });

  it('the OpenAI surface keeps its documented "up to 4", whatever the target', async () => {
    const error = await openai()
      .chat.completions.create({ model: GEMINI_MODEL, stop: ['1', '2', '3', '4', '5'], messages: [{ role: 'user', content: 'Hi' }] })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect((error as InstanceType<typeof OpenAI.BadRequestError>).param).toBe('stop');
  });

  it('a whitespace-only stop sequence from a Gemini client to Claude: 400 naming Anthropic', async () => {
    const error = await gemini()
      .models.generateContent({ model: ANTHROPIC_MODEL, contents: 'Hi', config: { stopSequences: ['END', '\n'] } })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(400);
    expect((error as ApiError).message).toContain('(Anthropic) needs each stop sequence to contain a non-whitespace character');
  });
});

describe('the error flag of a failed tool call crosses dialects', () => {
  const WEATHER = { name: 'get_weather', description: 'Weather', input_schema: { type: 'object' as const, properties: { city: { type: 'string' } } } };
  const failedTurn = (model: string) => ({
    model,
    max_tokens: 100,
    tools: [WEATHER],
    messages: [
      { role: 'user' as const, content: 'Weather in Paris?' },
      { role: 'assistant' as const, content: [{ type: 'tool_use' as const, id: 'toolu_01', name: 'get_weather', input: { city: 'Paris' } }] },
      { role: 'user' as const, content: [{ type: 'tool_result' as const, tool_use_id: 'toolu_01', content: 'service unavailable', is_error: true }] },
    ],
  });

  it('Anthropic is_error → OpenAI: the tool message says so, and the client is warned', async () => {
    const { response } = await anthropic().messages.create(failedTurn(OPENAI_MODEL)).withResponse();
    const body = lastBody<{ messages: Array<{ role: string; content: unknown }> }>(fakes.openai);
    expect(body.messages[2]).toMatchObject({ role: 'tool', content: 'Error: service unavailable' });
    expect(response.headers.get('x-gengate-warnings')).toContain('is_error: OpenAI tool messages have no error flag');
  });

  it('Anthropic is_error → Gemini: functionResponse.response.error', async () => {
    await anthropic().messages.create(failedTurn(GEMINI_MODEL));
    const body = lastBody<{ contents: Array<{ parts: Array<{ functionResponse?: { response: unknown } }> }> }>(fakes.gemini);
    expect(body.contents[2].parts[0].functionResponse!.response).toEqual({ error: 'service unavailable' });
  });

  it('Gemini functionResponse.response.error → Anthropic is_error: true, and → OpenAI "Error: …"', async () => {
    const contents = [
      { role: 'user', parts: [{ text: 'Weather in Paris?' }] },
      { role: 'model', parts: [{ functionCall: { name: 'get_weather', args: { city: 'Paris' } } }] },
      { role: 'user', parts: [{ functionResponse: { name: 'get_weather', response: { error: { code: 503, message: 'service unavailable' } } } }] },
    ];
    const config = { tools: [{ functionDeclarations: [{ name: 'get_weather', parametersJsonSchema: WEATHER.input_schema }] }] };
    await gemini().models.generateContent({ model: ANTHROPIC_MODEL, contents, config });
    const sent = lastBody<{ messages: Array<{ content: Array<Record<string, unknown>> }> }>(fakes.anthropic);
    expect(sent.messages[2].content[0]).toMatchObject({
      type: 'tool_result',
      is_error: true,
      content: '{"code":503,"message":"service unavailable"}',
    });

    await gemini().models.generateContent({ model: OPENAI_MODEL, contents, config });
    const body = lastBody<{ messages: Array<{ role: string; content: unknown }> }>(fakes.openai);
    expect(body.messages[2]).toMatchObject({ role: 'tool', content: 'Error: {"code":503,"message":"service unavailable"}' });
  });
});

describe('settings the target cannot honour', () => {
  it('logprobs and top_logprobs to Claude: answered without them, and the client is told', async () => {
    const { data, response } = await openai()
      .chat.completions.create({ model: ANTHROPIC_MODEL, logprobs: true, top_logprobs: 3, messages: [{ role: 'user', content: 'Hi' }] })
      .withResponse();
    expect(data.choices[0].message.content).toContain('You said: Hi');
    const warnings = response.headers.get('x-gengate-warnings') ?? '';
    expect(warnings).toContain('logprobs: not supported by Anthropic');
    expect(warnings).toContain('top_logprobs: not supported by Anthropic');
  });
});

describe('several choices (OpenAI n)', () => {
  it('n=3 to a Gemini model: candidateCount 3, every candidate an OpenAI choice, usage for all', async () => {
    const completion = await openai().chat.completions.create({ model: GEMINI_MODEL, n: 3, messages: [{ role: 'user', content: 'Hi there' }] });
    expect(lastBody<{ generationConfig: { candidateCount?: number } }>(fakes.gemini).generationConfig.candidateCount).toBe(3);
    expect(completion.choices.map((choice) => [choice.index, choice.finish_reason])).toEqual([
      [0, 'stop'],
      [1, 'stop'],
      [2, 'stop'],
    ]);
    for (const choice of completion.choices) expect(choice.message.content).toBe('Fake Gemini says: Hi there');
    expect(completion.usage!.completion_tokens).toBe(3 * 5);
  });

  it('n=2 streamed to a Gemini model: one choice, and the client is told', async () => {
    const { data: stream, response } = await openai()
      .chat.completions.create({ model: GEMINI_MODEL, n: 2, stream: true, messages: [{ role: 'user', content: 'Hi' }] })
      .withResponse();
    const indexes = new Set<number>();
    for await (const chunk of stream) for (const choice of chunk.choices) indexes.add(choice.index);
    expect([...indexes]).toEqual([0]);
    expect(lastBody<{ generationConfig?: { candidateCount?: number } }>(fakes.gemini).generationConfig?.candidateCount).toBeUndefined();
    expect(response.headers.get('x-gengate-warnings')).toContain('n: a streamed answer from Gemini carries one choice');
  });

  it('n=2 to a target that answers one choice is refused naming the target, not answered short', async () => {
    const error = await openai()
      .chat.completions.create({ model: ANTHROPIC_MODEL, n: 2, messages: [{ role: 'user', content: 'Hi' }] })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect((error as Error).message).toContain('n: textmodel-a-sonnet-4-20250514 (Anthropic) answers one choice per translated request, got n=2');
  });
});
