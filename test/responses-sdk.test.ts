/**
 * The Responses API through the official `openai` SDK against a real gateway: on the sandbox and
 * on the fake Anthropic, Gemini and OpenAI (chat completions) upstreams — create (plain, a
 * function-call round trip, `text.format` json_schema), `responses.stream` and its
 * `finalResponse()`, retrieve, delete, `inputItems.list` paging, `inputTokens.count`, cancel —
 * and the conversation state: `previous_response_id` follow-ups (one sent the instant a stream
 * ends), another account's ids unknown, `store: false`, and a conversation carried from Anthropic
 * (signed thinking) to Gemini (thinking dropped, with a warning) and back to Anthropic (the
 * signature and its text reach the fake unchanged). Each test marks the features it checks in
 * this file's rows of docs/compatibility.md (section `sdks-responses`), checked by the last test.
 */
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeThinkingSignature } from './fakes/fake-anthropic-thinking.js';
import { anthropicUpChannel, geminiUpChannel, openaiUpChannel, startFakeUpstreams, type FakeUpstreams } from './helpers/fake-channels.js';
import { clientVersion, SdkMatrix, type MatrixCase } from './helpers/sdk-matrix.js';
import { startGateway, type RunningGateway } from './helpers/start-gateway.js';

const matrix = new SdkMatrix('sdks-responses');
const OPENAI_SDK = clientVersion('openai');

function rowOn(upstream: string): MatrixCase {
  return { client: OPENAI_SDK, surface: 'OpenAI Responses', upstream };
}

const SANDBOX_MARKER = '[gengate sandbox — simulated response, no model was called]';

const WEATHER: OpenAI.Responses.FunctionTool = {
  type: 'function',
  name: 'get_weather',
  description: 'Current weather for a city',
  parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false },
  strict: true,
};

const REPORT_FORMAT: OpenAI.Responses.ResponseFormatTextJSONSchemaConfig = {
  type: 'json_schema',
  name: 'report',
  strict: true,
  schema: {
    type: 'object',
    properties: { city: { type: 'string' }, temperature: { type: 'number' }, sunny: { type: 'boolean' } },
    required: ['city', 'temperature', 'sunny'],
    additionalProperties: false,
  },
};

function clientOf(gw: RunningGateway, key = gw.key): OpenAI {
  return new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: key, maxRetries: 0 });
}

function functionCalls(response: OpenAI.Responses.Response): OpenAI.Responses.ResponseFunctionToolCall[] {
  return response.output.filter((item): item is OpenAI.Responses.ResponseFunctionToolCall => item.type === 'function_call');
}

async function statusOf(promise: Promise<unknown>): Promise<{ status?: number; error?: Record<string, unknown> }> {
  try {
    await promise;
    return {};
  } catch (error) {
    const apiError = error as { status?: number; error?: Record<string, unknown> };
    return { status: apiError.status, error: apiError.error };
  }
}

/** The parts of the SDK every upstream is driven through the same way. */
function sharedBehaviour(name: string, upstream: string, setup: () => { gw: RunningGateway; model: string; provider: string }): void {
  const row = rowOn(upstream);
  describe(`the openai SDK's responses on ${name}`, () => {
    it('creates a response, says who answered, and retrieves it as created', async () => {
      matrix.covers(row, 'plain');
      const { gw, model, provider } = setup();
      const client = clientOf(gw);
      const { data: created, response } = await client.responses.create({ model, input: 'Say hello to Ada' }).withResponse();
      expect(response.headers.get('x-gengate-provider')).toBe(provider);
      expect(response.headers.get('x-gengate-route')).toBe('translated');
      expect(created.id).toMatch(/^resp_/);
      expect(created.object).toBe('response');
      expect(created.status).toBe('completed');
      expect(created.model).toBe(model);
      expect(created.output_text.length).toBeGreaterThan(0);
      expect(created.usage?.input_tokens).toBeGreaterThan(0);
      expect(created.usage?.output_tokens).toBeGreaterThan(0);
      const retrieved = await client.responses.retrieve(created.id);
      expect(retrieved.id).toBe(created.id);
      expect(retrieved.output).toEqual(created.output);
      expect(retrieved.output_text).toBe(created.output_text);
    });

    it('runs a function call round trip with previous_response_id', async () => {
      matrix.covers(row, 'tools', 'state');
      const { gw, model } = setup();
      const client = clientOf(gw);
      const first = await client.responses.create({ model, input: 'What is the weather in Paris?', tools: [WEATHER], tool_choice: 'required' });
      const [call] = functionCalls(first);
      expect(call).toBeDefined();
      expect(call.name).toBe('get_weather');
      expect(call.call_id.length).toBeGreaterThan(0);
      expect(typeof JSON.parse(call.arguments).city).toBe('string');
      const second = await client.responses.create({
        model,
        previous_response_id: first.id,
        tools: [WEATHER],
        input: [{ type: 'function_call_output', call_id: call.call_id, output: '{"temperature": 21, "sky": "clear"}' }],
      });
      expect(second.status).toBe('completed');
      expect(second.previous_response_id).toBe(first.id);
      expect(functionCalls(second)).toEqual([]);
      expect(second.output_text.length).toBeGreaterThan(0);
    });

    it('answers text.format json_schema with JSON of that schema', async () => {
      matrix.covers(row, 'structured output');
      const { gw, model } = setup();
      const response = await clientOf(gw).responses.create({ model, input: 'Report the weather in Oslo', text: { format: REPORT_FORMAT } });
      const report = JSON.parse(response.output_text) as Record<string, unknown>;
      expect(typeof report.city).toBe('string');
      expect(typeof report.temperature).toBe('number');
      expect(typeof report.sunny).toBe('boolean');
    });

    it('streams with the helpers, and a follow-up sent the instant the stream ends continues it', async () => {
      matrix.covers(row, 'stream', 'state');
      const { gw, model } = setup();
      const client = clientOf(gw);
      const stream = client.responses.stream({ model, input: 'Tell me about rivers' });
      const types = new Set<string>();
      let deltas = '';
      for await (const event of stream) {
        types.add(event.type);
        if (event.type === 'response.output_text.delta') deltas += event.delta;
      }
      const final = await stream.finalResponse();
      expect(final.status).toBe('completed');
      expect(types).toContain('response.created');
      expect(types).toContain('response.completed');
      expect(deltas).toBe(final.output_text);
      // No pause: the response is stored before its terminal event went out.
      const next = await client.responses.create({ model, input: 'And about lakes?', previous_response_id: final.id });
      expect(next.status).toBe('completed');
      const items = await client.responses.inputItems.list(next.id);
      expect(items.data).toHaveLength(1);
    });

    it('deletes a response: then it is unknown to retrieve, delete and follow-ups', async () => {
      matrix.covers(row, 'state');
      const { gw, model } = setup();
      const client = clientOf(gw);
      const created = await client.responses.create({ model, input: 'Short-lived' });
      await client.responses.delete(created.id);
      expect((await statusOf(client.responses.retrieve(created.id))).status).toBe(404);
      expect((await statusOf(client.responses.delete(created.id))).status).toBe(404);
      const followUp = await statusOf(client.responses.create({ model, input: 'more', previous_response_id: created.id }));
      expect(followUp.status).toBe(400);
      expect(followUp.error).toMatchObject({ param: 'previous_response_id', message: `Previous response with id '${created.id}' not found.` });
    });
  });
}

describe('on the sandbox', () => {
  let gw: RunningGateway;
  let otherAccountKey: string;
  const MODEL = 'textmodel-b-4o';

  beforeAll(async () => {
    gw = await startGateway({ key: { name: 'alice', accountId: 'acct-alice' } });
    otherAccountKey = await gw.createKey({ name: 'bob', accountId: 'acct-bob' });
  });
  afterAll(() => gw.close());

  sharedBehaviour('the sandbox', 'sandbox', () => ({ gw, model: MODEL, provider: 'sandbox' }));

  it('marks the answer simulated', async () => {
    matrix.covers(rowOn('sandbox'), 'plain');
    const { data, response } = await clientOf(gw).responses.create({ model: MODEL, input: 'hello' }).withResponse();
    expect(response.headers.get('x-gengate-simulated')).toBe('true');
    expect(data.output_text.startsWith(SANDBOX_MARKER)).toBe(true);
  });

  it('lists input items in pages, newest first by default, as the SDK pages them', async () => {
    const client = clientOf(gw);
    const texts = ['one', 'two', 'three', 'four', 'five'];
    const created = await client.responses.create({ model: MODEL, input: texts.map((text) => ({ role: 'user' as const, content: text })) });
    const firstPage = await client.responses.inputItems.list(created.id, { limit: 2 });
    expect(firstPage.data).toHaveLength(2);
    expect(firstPage.has_more).toBe(true);
    const textOf = (item: OpenAI.Responses.ResponseItem) => (item as { content: Array<{ text: string }> }).content[0].text;
    const desc: string[] = [];
    for await (const item of client.responses.inputItems.list(created.id, { limit: 2 })) desc.push(textOf(item));
    expect(desc).toEqual([...texts].reverse());
    const asc: string[] = [];
    for await (const item of client.responses.inputItems.list(created.id, { limit: 3, order: 'asc' })) asc.push(textOf(item));
    expect(asc).toEqual(texts);
    const ids = (await client.responses.inputItems.list(created.id, { order: 'asc' })).data.map((item) => item.id);
    expect(new Set(ids).size).toBe(5);
    const after = await client.responses.inputItems.list(created.id, { order: 'asc', after: ids[1], limit: 2 });
    expect(after.data.map((item) => item.id)).toEqual(ids.slice(2, 4));
    expect(after.has_more).toBe(true);
    const raw = await fetch(`${gw.url}/v1/responses/${created.id}/input_items?limit=101`, { headers: { authorization: `Bearer ${gw.key}` } });
    expect(raw.status).toBe(400);
    expect(((await raw.json()) as { error: { param: string } }).error.param).toBe('limit');
  });

  it('counts input tokens, more for a longer input and with the conversation it continues', async () => {
    matrix.covers(rowOn('sandbox'), 'state');
    const client = clientOf(gw);
    const short = await client.responses.inputTokens.count({ model: MODEL, input: 'Hi' });
    expect(short.object).toBe('response.input_tokens');
    expect(short.input_tokens).toBeGreaterThan(0);
    const long = await client.responses.inputTokens.count({ model: MODEL, input: 'Hi there, please tell me a long story about the sea and the wind.' });
    expect(long.input_tokens).toBeGreaterThan(short.input_tokens);
    const earlier = await client.responses.create({ model: MODEL, input: 'Remember the number 42 and a long sentence about mountains.' });
    const continued = await client.responses.inputTokens.count({ model: MODEL, input: 'Hi', previous_response_id: earlier.id });
    expect(continued.input_tokens).toBeGreaterThan(short.input_tokens);
  });

  it('counts input tokens only for a model the key may use, as it creates responses', async () => {
    const restricted = clientOf(gw, await gw.createKey({ name: 'claude only', accountId: 'acct-alice', models: ['textmodel-a-*'] }));
    const created = await statusOf(restricted.responses.create({ model: MODEL, input: 'Hi' }));
    const counted = await statusOf(restricted.responses.inputTokens.count({ model: MODEL, input: 'Hi' }));
    expect(created.status).toBe(403);
    expect(counted).toEqual(created);
    expect((await restricted.responses.inputTokens.count({ model: 'textmodel-a-haiku-4-5-20251001', input: 'Hi' })).input_tokens).toBeGreaterThan(0);
  });

  it("keeps another account's responses unknown: GET, DELETE, input_items and previous_response_id", async () => {
    matrix.covers(rowOn('sandbox'), 'state');
    const mine = await clientOf(gw).responses.create({ model: MODEL, input: 'private' });
    const theirs = clientOf(gw, otherAccountKey);
    const get = await statusOf(theirs.responses.retrieve(mine.id));
    expect(get.status).toBe(404);
    expect(get.error).toMatchObject({ type: 'invalid_request_error', message: `Response with id '${mine.id}' not found.` });
    expect((await statusOf(theirs.responses.delete(mine.id))).status).toBe(404);
    expect((await statusOf(theirs.responses.inputItems.list(mine.id))).status).toBe(404);
    const followUp = await statusOf(theirs.responses.create({ model: MODEL, input: 'steal', previous_response_id: mine.id }));
    expect(followUp.status).toBe(400);
    expect(followUp.error).toMatchObject({ param: 'previous_response_id', code: 'previous_response_not_found' });
    // Still there for its owner.
    expect((await clientOf(gw).responses.retrieve(mine.id)).id).toBe(mine.id);
  });

  it("resolves an item_reference to an earlier response's item without previous_response_id, and another account's as unknown", async () => {
    const mine = await clientOf(gw).responses.create({ model: MODEL, input: 'private words' });
    const itemId = mine.output[0].id as string;
    const refer = (key: string) =>
      fetch(`${gw.url}/v1/responses`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          model: MODEL,
          input: [
            { type: 'item_reference', id: itemId },
            { role: 'user', content: 'Go on.' },
          ],
        }),
      });
    const own = await refer(gw.key);
    expect(own.status).toBe(200);
    const continued = (await own.json()) as { id: string };
    // Stored as the item it names, same id.
    const inputItems = await clientOf(gw).responses.inputItems.list(continued.id, { order: 'asc' });
    expect(inputItems.data[0]).toMatchObject({ id: itemId, type: 'message', role: 'assistant' });
    const theirs = await refer(otherAccountKey);
    expect(theirs.status).toBe(400);
    const text = await theirs.text();
    expect(JSON.parse(text)).toMatchObject({ error: { type: 'invalid_request_error', param: 'input[0].id' } });
    expect(text).toContain(itemId);
    expect(text).not.toContain('private words');
  });

  it('stores nothing with store: false', async () => {
    matrix.covers(rowOn('sandbox'), 'state');
    const client = clientOf(gw);
    const created = await client.responses.create({ model: MODEL, input: 'forget me', store: false });
    expect((created as unknown as { store: boolean }).store).toBe(false);
    expect((await statusOf(client.responses.retrieve(created.id))).status).toBe(404);
    expect((await statusOf(client.responses.create({ model: MODEL, input: 'x', previous_response_id: created.id }))).status).toBe(400);
  });

  it('refuses background mode without storage and cancelling a response that did not run in it', async () => {
    const client = clientOf(gw);
    const background = await statusOf(client.responses.create({ model: MODEL, input: 'later', background: true, store: false }));
    expect(background.status).toBe(400);
    expect(background.error).toMatchObject({ param: 'background' });
    const created = await client.responses.create({ model: MODEL, input: 'now' });
    const cancel = await statusOf(client.responses.cancel(created.id));
    expect(cancel.status).toBe(400);
    expect(cancel.error).toMatchObject({ message: 'Cannot cancel a synchronous response.' });
    expect((await statusOf(client.responses.cancel('resp_unknown'))).status).toBe(404);
  });

  it('answers bad ids in OpenAI’s shape, never a 500', async () => {
    const client = clientOf(gw);
    for (const id of ['resp_nope', 'x'.repeat(90), 'resp_%00', 'resp_%E2%80%AE']) {
      const res = await fetch(`${gw.url}/v1/responses/${id}`, { headers: { authorization: `Bearer ${gw.key}` } });
      expect(res.status, id).toBe(404);
      const body = (await res.json()) as { error: { message: string; type: string } };
      expect(body.error.type).toBe('invalid_request_error');
      expect(body.error.message).not.toContain('\u0000');
    }
    const tooLong = await fetch(`${gw.url}/v1/responses/${'x'.repeat(600)}`, { headers: { authorization: `Bearer ${gw.key}` } });
    expect(tooLong.status).toBe(414);
    expect(((await tooLong.json()) as { error: { type: string } }).error.type).toBe('invalid_request_error');
    const bad = await statusOf(client.responses.create({ model: MODEL, input: 'x', previous_response_id: 'resp_\u0001' }));
    expect(bad.status).toBe(400);
    expect(bad.error).toMatchObject({ param: 'previous_response_id' });
  });

  it('records each call in the ledger under the responses surface', async () => {
    matrix.covers(rowOn('sandbox'), 'plain', 'stream');
    await gw.gateway.recorder.flush();
    const before = (await gw.gateway.usage.recent(1000)).length;
    await clientOf(gw).responses.create({ model: MODEL, input: 'bill me' });
    await clientOf(gw).responses.stream({ model: MODEL, input: 'bill me streamed' }).finalResponse();
    await new Promise((resolve) => setTimeout(resolve, 50));
    await gw.gateway.recorder.flush();
    const rows = await gw.gateway.usage.recent(1000);
    expect(rows.length).toBe(before + 2);
    expect(rows.slice(0, 2).map((row) => [row.surface, row.model, row.outcome, row.stream])).toEqual([
      ['responses', MODEL, 'ok', 1],
      ['responses', MODEL, 'ok', 0],
    ]);
  });
});

describe('on the fake upstreams', () => {
  let fakes: FakeUpstreams;
  let gw: RunningGateway;
  const CLAUDE = 'textmodel-a-sonnet-4-20250514';
  const GEMINI = 'textmodel-c-2.5-flash';

  beforeAll(async () => {
    fakes = await startFakeUpstreams();
    gw = await startGateway({ channels: [anthropicUpChannel(fakes.anthropic), geminiUpChannel(fakes.gemini), openaiUpChannel(fakes.openai)] });
  });
  afterAll(async () => {
    await gw?.close();
    await fakes?.close();
  });

  sharedBehaviour('the fake Anthropic upstream', 'Anthropic', () => ({ gw, model: CLAUDE, provider: 'anthropic' }));
  sharedBehaviour('the fake Gemini upstream', 'Gemini', () => ({ gw, model: GEMINI, provider: 'gemini' }));
  sharedBehaviour('the fake OpenAI chat completions upstream', 'OpenAI', () => ({ gw, model: 'textmodel-b-4o', provider: 'openai' }));

  it('carries a conversation from Anthropic (signed thinking) to Gemini (dropped, with a warning) and back to Anthropic (signature and text unchanged)', async () => {
    matrix.covers(rowOn('Anthropic'), 'reasoning', 'state');
    matrix.covers(rowOn('Gemini'), 'state');
    const client = clientOf(gw);
    const first = await client.responses.create({
      model: CLAUDE,
      input: 'What should I pack for Lisbon?',
      reasoning: { effort: 'low', summary: 'auto' },
      include: ['reasoning.encrypted_content'],
    });
    const reasoning = first.output.find((item): item is OpenAI.Responses.ResponseReasoningItem => item.type === 'reasoning');
    expect(reasoning).toBeDefined();
    const thought = 'The user wrote to me, so I will answer what they said.';
    expect(reasoning?.summary.map((part) => part.text).join('')).toBe(thought);
    expect(reasoning?.encrypted_content).toEqual(expect.any(String));
    // Sealed: neither the signature nor the text shows in the clear.
    expect(reasoning?.encrypted_content).not.toContain(fakeThinkingSignature(thought));
    expect(reasoning?.encrypted_content).not.toContain('answer what they said');

    const { data: second, response } = await client.responses.create({ model: GEMINI, input: 'And for Porto?', previous_response_id: first.id }).withResponse();
    expect(second.status).toBe('completed');
    expect(response.headers.get('x-gengate-provider')).toBe('gemini');
    expect(response.headers.get('x-gengate-warnings')).toMatch(/thinking signed by another vendor dropped \(1 from anthropic\)/);
    const sentToGemini = JSON.stringify(fakes.gemini.requests.at(-1)?.body);
    expect(sentToGemini).toContain('What should I pack for Lisbon?');
    expect(sentToGemini).not.toContain(fakeThinkingSignature(thought));

    const anthropicCalls = fakes.anthropic.requests.length;
    const third = await client.responses.create({
      model: CLAUDE,
      input: 'Thanks, and Faro?',
      previous_response_id: second.id,
      reasoning: { effort: 'low' },
    });
    expect(third.status).toBe('completed');
    expect(fakes.anthropic.requests.length).toBe(anthropicCalls + 1);
    const sent = fakes.anthropic.requests.at(-1)?.body as { messages: Array<{ role: string; content: unknown }> };
    const firstAnswer = sent.messages[1];
    expect(firstAnswer.role).toBe('assistant');
    expect(firstAnswer.content).toEqual(expect.arrayContaining([{ type: 'thinking', thinking: thought, signature: fakeThinkingSignature(thought) }]));
    expect(JSON.stringify(sent.messages)).toContain('And for Porto?');
  });

  it('continues a streamed Anthropic turn with thinking on Anthropic, the signature intact', async () => {
    matrix.covers(rowOn('Anthropic'), 'stream', 'tools', 'reasoning', 'state');
    const client = clientOf(gw);
    const stream = client.responses.stream({ model: CLAUDE, input: 'Plan a hike', reasoning: { effort: 'low' }, tools: [WEATHER], tool_choice: 'required' });
    const first = await stream.finalResponse();
    const [call] = functionCalls(first);
    expect(call).toBeDefined();
    // The fake refuses a tool loop whose final assistant turn lost its signed thinking.
    const second = await client.responses.create({
      model: CLAUDE,
      previous_response_id: first.id,
      reasoning: { effort: 'low' },
      tools: [WEATHER],
      input: [{ type: 'function_call_output', call_id: call.call_id, output: 'sunny' }],
    });
    expect(second.status).toBe('completed');
    const thought = 'The user needs get_weather, so I will call it.';
    const sent = fakes.anthropic.requests.at(-1)?.body as { messages: Array<{ role: string; content: Array<Record<string, unknown>> }> };
    expect(sent.messages[1].content[0]).toEqual({ type: 'thinking', thinking: thought, signature: fakeThinkingSignature(thought) });
  });
});

describe('docs/compatibility.md', () => {
  it('holds the openai SDK responses matrix of this run', (context) => {
    matrix.checkDocument(context);
  });
});
