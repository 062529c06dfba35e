/**
 * The Responses API relayed untranslated to a channel of OpenAI itself, through the official
 * `openai` SDK, against the fake of OpenAI's Responses API: the upstream receives the client's
 * body with only the model, `store` (false: the gateway keeps the state) and what the gateway's
 * state replaces changed, hosted tools included; the client sees the gateway's ids only, in the
 * JSON answer and in every stream event; the usage OpenAI reported is the call's; the response is
 * stored and retrieved as the client got it; and a conversation moves between OpenAI (relayed)
 * and Anthropic (translated) in both directions, OpenAI's encrypted reasoning given back to it
 * under its own id. An OpenAI-compatible server (or an OpenAI channel without the Responses API)
 * stays translated, and a hosted tool sent to a translated channel is left out with a warning.
 */
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeAnthropicUpstream, type FakeAnthropicUpstream } from './fakes/fake-anthropic-upstream.js';
import { FAKE_RESPONSES_KEY, startFakeResponsesUpstream, type FakeResponsesUpstream } from './fakes/fake-openai-responses-upstream.js';
import { startFakeOpenAIUpstream, type FakeOpenAIUpstream } from './fakes/fake-openai-upstream.js';
import { anthropicUpChannel, openaiUpChannel } from './helpers/fake-channels.js';
import { startGateway, type RunningGateway } from './helpers/start-gateway.js';

const GPT = 'textmodel-b-4o';
const UPSTREAM_GPT = 'gpt-4o';
const CLAUDE = 'textmodel-a-sonnet-4-20250514';
/** Served by an OpenAI-compatible channel in front of the Chat Completions fake. */
const LOCAL = 'local-llama-3';

const WEATHER: OpenAI.Responses.FunctionTool = {
  type: 'function',
  name: 'get_weather',
  description: 'Current weather for a city',
  parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false },
  strict: true,
};

let responsesFake: FakeResponsesUpstream;
let chatFake: FakeOpenAIUpstream;
let anthropic: FakeAnthropicUpstream;
let gw: RunningGateway;
let client: OpenAI;

beforeAll(async () => {
  [responsesFake, chatFake, anthropic] = await Promise.all([startFakeResponsesUpstream(), startFakeOpenAIUpstream(), startFakeAnthropicUpstream()]);
  gw = await startGateway({
    channels: [
      {
        name: 'openai-responses',
        provider: 'openai',
        baseUrl: responsesFake.url,
        apiKey: FAKE_RESPONSES_KEY,
        models: ['textmodel-b-*'],
        modelRewrite: [{ from: 'textmodel-b-', to: 'gpt-' }],
      },
      anthropicUpChannel(anthropic),
      openaiUpChannel(chatFake, { name: 'local-compatible', provider: 'openai-compatible', models: ['local-*'], modelRewrite: [], options: {} }),
    ],
  });
  client = new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: gw.key, maxRetries: 0 });
});
afterAll(async () => {
  await gw?.close();
  await Promise.all([responsesFake?.close(), chatFake?.close(), anthropic?.close()]);
});

function lastUpstreamBody(): Record<string, unknown> {
  const last = responsesFake.requests.at(-1);
  if (!last) throw new Error('the Responses fake received nothing');
  return last.body;
}

/** Every id-like string of an answer the fake issued: none may reach the client. */
function leakedUpstreamIds(text: string): string[] {
  return [...responsesFake.issuedIds].filter((id) => text.includes(id));
}

/** `store` as the response object echoes it (the SDK's type leaves it out). */
function storeOf(response: OpenAI.Responses.Response): unknown {
  return (response as unknown as { store?: unknown }).store;
}

async function usageRowOf(requestId: string) {
  await gw.gateway.recorder.flush();
  return gw.gateway.store.db.selectFrom('usage_records').selectAll().where('request_id', '=', requestId).executeTakeFirstOrThrow();
}

describe('create through a channel of OpenAI itself', () => {
  it('relays the body with only model, store and include changed, hosted web_search included; ids are the gateway’s; usage is recorded', async () => {
    const request = {
      model: GPT,
      input: 'Please search for the tallest tree',
      instructions: 'Be brief.',
      tools: [{ type: 'web_search' as const }, WEATHER],
      metadata: { ticket: 'T-1' },
      temperature: 0.4,
      reasoning: { effort: 'low' as const },
    };
    const { data: created, response } = await client.responses.create(request).withResponse();
    expect(response.headers.get('x-gengate-route')).toBe('passthrough');
    expect(response.headers.get('x-gengate-provider')).toBe('openai');
    expect(response.headers.get('x-gengate-warnings')).toBeNull();

    expect(lastUpstreamBody()).toEqual({ ...request, model: UPSTREAM_GPT, store: false, include: ['reasoning.encrypted_content'] });

    expect(created.id).toMatch(/^resp_[0-9a-f]{48}$/);
    expect(created.model).toBe(GPT);
    expect(storeOf(created)).toBe(true);
    expect(created.output.map((item) => item.type)).toEqual(['reasoning', 'web_search_call', 'message']);
    expect(created.output_text).toBe('Found it on the web (turn 1).');
    expect(leakedUpstreamIds(JSON.stringify(created))).toEqual([]);
    // The client did not ask for encrypted reasoning: the gateway asked for it to keep, and shows none.
    expect(JSON.stringify(created)).not.toContain('encrypted_content');

    const row = await usageRowOf(response.headers.get('x-request-id')!);
    expect(row).toMatchObject({ surface: 'responses', channel: 'openai-responses', outcome: 'ok' });
    expect({ input: row.input_tokens, output: row.output_tokens, reasoning: row.reasoning_tokens }).toEqual({
      input: created.usage?.input_tokens,
      output: created.usage?.output_tokens,
      reasoning: 6,
    });

    // Continued on OpenAI: the search's call (its id OpenAI's, never kept) is left out, its cited answer and reasoning sent.
    const next = await client.responses.create({ model: GPT, input: 'Thanks', previous_response_id: created.id, tools: request.tools });
    expect(next.output_text).toBe('Turn 2: you said "Thanks"');
    const sent = lastUpstreamBody().input as Array<Record<string, unknown>>;
    expect(sent.map((item) => item.type)).toEqual(['message', 'reasoning', 'message', 'message']);
  });

  it('streams OpenAI’s events with the gateway’s ids in every one, sequence numbers as sent, and retrieves the stored response', async () => {
    const stream = client.responses.stream({
      model: GPT,
      input: 'Tell me about rivers',
      include: ['reasoning.encrypted_content'],
      reasoning: { effort: 'low' },
    });
    const events: OpenAI.Responses.ResponseStreamEvent[] = [];
    for await (const event of stream) events.push(event);
    const final = await stream.finalResponse();

    expect(lastUpstreamBody()).toMatchObject({ stream: true, store: false, include: ['reasoning.encrypted_content'] });
    expect(events.map((event) => event.sequence_number)).toEqual(events.map((_, i) => i));
    expect(leakedUpstreamIds(JSON.stringify(events))).toEqual([]);
    const responseIds = new Set(events.flatMap((event) => ('response' in event ? [event.response.id] : [])));
    expect([...responseIds]).toEqual([final.id]);
    const message = final.output.find((item) => item.type === 'message')!;
    const named = new Set(events.flatMap((event) => ('item_id' in event ? [event.item_id] : 'item' in event ? [event.item.id] : [])));
    expect(named).toEqual(new Set(final.output.map((item) => item.id)));
    expect(named).toContain(message.id);
    const deltas = events.flatMap((event) => (event.type === 'response.output_text.delta' ? [event.delta] : [])).join('');
    expect(deltas).toBe(final.output_text);
    // Asked for: the reasoning is sealed by the gateway, not OpenAI's own.
    const reasoning = final.output.find((item) => item.type === 'reasoning') as OpenAI.Responses.ResponseReasoningItem;
    expect(reasoning.encrypted_content).toMatch(/^ggr1_/);

    const completed = events.find((event) => event.type === 'response.completed') as OpenAI.Responses.ResponseCompletedEvent;
    const retrieved = await client.responses.retrieve(final.id, { include: ['reasoning.encrypted_content'] });
    expect(retrieved.output).toEqual(completed.response.output);
    expect(retrieved.id).toBe(final.id);
    const items = await client.responses.inputItems.list(final.id);
    expect(items.data).toMatchObject([{ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Tell me about rivers' }] }]);

    // The usage of the stream's terminal event is the call's.
    await gw.gateway.recorder.flush();
    const row = await gw.gateway.store.db.selectFrom('usage_records').selectAll().where('stream', '=', 1).orderBy('id', 'desc').executeTakeFirstOrThrow();
    expect(row).toMatchObject({ surface: 'responses', channel: 'openai-responses', upstream_model: UPSTREAM_GPT, outcome: 'ok' });
    expect({ input: row.input_tokens, output: row.output_tokens, reasoning: row.reasoning_tokens }).toEqual({
      input: final.usage?.input_tokens,
      output: final.usage?.output_tokens,
      reasoning: 6,
    });
  });

  it('answers a forced function call, and continues it with previous_response_id', async () => {
    const first = await client.responses.create({ model: GPT, input: 'Weather in Paris?', tools: [WEATHER], tool_choice: 'required' });
    const call = first.output.find((item) => item.type === 'function_call') as OpenAI.Responses.ResponseFunctionToolCall;
    expect(call.name).toBe('get_weather');
    expect(leakedUpstreamIds(JSON.stringify(first))).toEqual([]);
    const second = await client.responses.create({
      model: GPT,
      previous_response_id: first.id,
      tools: [WEATHER],
      input: [{ type: 'function_call_output', call_id: call.call_id, output: 'sunny, 21 degrees' }],
    });
    expect(second.output_text).toBe('The tool answered: sunny, 21 degrees');
    expect(second.previous_response_id).toBe(first.id);
    const sent = lastUpstreamBody();
    expect(sent.previous_response_id).toBeUndefined();
    // The history as input items, without the gateway's ids (OpenAI would look them up), the call id as OpenAI issued it.
    expect(sent.input).toEqual([
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Weather in Paris?' }] },
      { type: 'function_call', status: 'completed', call_id: call.call_id, name: 'get_weather', arguments: call.arguments },
      { type: 'function_call_output', call_id: call.call_id, output: 'sunny, 21 degrees' },
    ]);
  });

  it('expands an item_reference to the stored item the gateway issued', async () => {
    const first = await client.responses.create({ model: GPT, input: 'Remember the number 42' });
    const message = first.output.find((item) => item.type === 'message')!;
    await client.responses.create({
      model: GPT,
      input: [
        { type: 'item_reference', id: message.id },
        { role: 'user', content: 'What was it?' },
      ],
    });
    const sent = lastUpstreamBody();
    expect(sent.input).toEqual([
      {
        type: 'message',
        status: 'completed',
        role: 'assistant',
        content: [{ type: 'output_text', text: 'Turn 1: you said "Remember the number 42"', annotations: [], logprobs: [] }],
      },
      { role: 'user', content: 'What was it?' },
    ]);
  });

  it('keeps nothing with store: false, and tells the client so', async () => {
    const created = await client.responses.create({ model: GPT, input: 'Forget me', store: false });
    expect(storeOf(created)).toBe(false);
    expect(lastUpstreamBody().include).toBeUndefined();
    const retrieved = await client.responses.retrieve(created.id).then(
      () => 200,
      (error: { status?: number }) => error.status,
    );
    expect(retrieved).toBe(404);
  });
});

describe('a conversation across OpenAI (relayed) and Anthropic (translated)', () => {
  it('begins on OpenAI with reasoning, continues on Anthropic, then back on OpenAI with OpenAI’s own encrypted reasoning', async () => {
    const first = await client.responses.create({ model: GPT, input: 'My name is Ada', reasoning: { effort: 'low' } });
    const upstreamReasoning = responsesFake.requests.length;
    const second = await client.responses.create({ model: CLAUDE, input: 'What is my name?', previous_response_id: first.id });
    expect(second.status).toBe('completed');
    const toAnthropic = anthropic.requests.at(-1)?.body as { messages: Array<{ role: string; content: unknown }> };
    expect(JSON.stringify(toAnthropic.messages[0].content)).toContain('My name is Ada');
    expect(JSON.stringify(toAnthropic.messages[1].content)).toContain('Turn 1: you said \\"My name is Ada\\"');
    // OpenAI's reasoning is not Anthropic's to read: left out.
    expect(JSON.stringify(toAnthropic)).not.toContain('Weighing the question');

    const third = await client.responses.create({ model: GPT, input: 'And again?', previous_response_id: second.id, reasoning: { effort: 'low' } });
    expect(responsesFake.requests.length).toBe(upstreamReasoning + 1);
    expect(third.output_text).toBe('Turn 3: you said "And again?"');
    const sent = lastUpstreamBody().input as Array<Record<string, unknown>>;
    expect(sent.map((item) => item.type ?? item.role)).toEqual(['message', 'reasoning', 'message', 'message', 'message', 'message']);
    // The fake accepts reasoning only under the id and with the encrypted content it issued (as OpenAI does with store: false).
    const reasoning = sent[1];
    expect(responsesFake.issuedIds.has(reasoning.id as string)).toBe(true);
    expect(String(reasoning.encrypted_content)).toMatch(/^gAAAA/);
    expect(sent.every((item) => item.type === 'reasoning' || item.id === undefined)).toBe(true);
  });

  it('begins on Anthropic and continues on OpenAI, the history sent as input items', async () => {
    const first = await client.responses.create({ model: CLAUDE, input: 'Hello from Anthropic' });
    const answer = first.output_text;
    const { data: second, response } = await client.responses.create({ model: GPT, input: 'Now on OpenAI', previous_response_id: first.id }).withResponse();
    expect(second.output_text).toBe('Turn 2: you said "Now on OpenAI"');
    expect(lastUpstreamBody().input).toEqual([
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Hello from Anthropic' }] },
      expect.objectContaining({ type: 'message', role: 'assistant', content: [expect.objectContaining({ type: 'output_text', text: answer })] }),
      { type: 'message', role: 'user', content: 'Now on OpenAI' },
    ]);
    // Turn 2 on OpenAI reports cached input: the ledger reads it from OpenAI's usage.
    expect(second.usage?.input_tokens_details.cached_tokens).toBe(4);
    const row = await usageRowOf(response.headers.get('x-request-id')!);
    expect({ input: row.input_tokens, cached: row.cache_read_tokens }).toEqual({ input: second.usage?.input_tokens, cached: 4 });
  });
});

describe('channels that translate', () => {
  it('an OpenAI-compatible server gets Chat Completions, not the Responses API', async () => {
    const before = chatFake.requests.length;
    const { response } = await client.responses.create({ model: LOCAL, input: 'Hello local' }).withResponse();
    expect(response.headers.get('x-gengate-route')).toBe('translated');
    expect(chatFake.requests.slice(before).map((r) => r.path)).toEqual(['/v1/chat/completions']);
  });

  it('a hosted tool sent to a translated channel is left out with a warning naming it (unchanged behaviour), and OpenAI gets it', async () => {
    const { response } = await client.responses.create({ model: CLAUDE, input: 'Search the web', tools: [{ type: 'web_search' }] }).withResponse();
    expect(response.headers.get('x-gengate-route')).toBe('translated');
    expect(response.headers.get('x-gengate-warnings')).toContain('tools[0]: the hosted tool "web_search" was left out');
    const relayed = await client.responses.create({
      model: GPT,
      input: 'Search the web',
      tools: [{ type: 'web_search_preview' }],
      tool_choice: { type: 'web_search_preview' },
    });
    expect(relayed.output.map((item) => item.type)).toEqual(['web_search_call', 'message']);
    // A translated route refuses a forced hosted tool; OpenAI gets it as sent.
    expect(lastUpstreamBody()).toMatchObject({ tools: [{ type: 'web_search_preview' }], tool_choice: { type: 'web_search_preview' } });
  });
});
