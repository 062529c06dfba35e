import OpenAI from 'openai';
import { accumulateResponse } from 'openai/lib/responses/ResponseAccumulator';
import type { Response as OpenAIResponse, ResponseStreamEvent } from 'openai/resources/responses/responses';
import { describe, expect, it } from 'vitest';
import type { ChatEvent } from '../../core/chat.js';
import { GatewayError } from '../../core/errors.js';
import type { SealedReasoning } from '../../core/responses.js';
import { renderResponsesStream } from './render-responses-stream.js';
import type { RenderContext, RenderedResponse } from './seams.js';

const MSG = /^msg_[0-9a-f]{48}$/;
const FC = /^fc_[0-9a-f]{48}$/;
const RS = /^rs_[0-9a-f]{48}$/;

function context(overrides: Partial<RenderContext> = {}): RenderContext {
  return {
    responseId: 'resp_stream_1',
    createdAt: 1_760_000_000,
    model: 'claude-sonnet-4',
    echo: { store: true },
    provider: 'anthropic',
    sealReasoning: (reasoning: SealedReasoning) => `sealed(${reasoning.provider},${reasoning.signature ?? ''},${reasoning.text ?? ''})`,
    include: [],
    includeObfuscation: false,
    ...overrides,
  };
}

async function* from(events: ChatEvent[], thenThrow?: Error): AsyncGenerator<ChatEvent> {
  for (const event of events) yield event;
  if (thenThrow) throw thenThrow;
}

interface Frame {
  event: string;
  data: Record<string, unknown> & { type: string; sequence_number: number };
}

interface Run {
  raw: string[];
  frames: Frame[];
  types: string[];
  stored: RenderedResponse[];
}

/** One SSE frame per string: `event: <type>`, `data: <json>` whose type is the same. */
function parseFrame(raw: string): Frame {
  const match = /^event: ([^\n]+)\ndata: ([^\n]+)\n\n$/.exec(raw);
  if (!match) throw new Error(`not one SSE frame: ${JSON.stringify(raw)}`);
  const data = JSON.parse(match[2]) as Frame['data'];
  expect(data.type).toBe(match[1]);
  return { event: match[1], data };
}

async function run(events: AsyncIterable<ChatEvent>, ctx = context(), beforeTerminal?: (rendered: RenderedResponse) => Promise<void>): Promise<Run> {
  const stored: RenderedResponse[] = [];
  const raw: string[] = [];
  const store = beforeTerminal ?? (async (rendered: RenderedResponse) => void stored.push(rendered));
  for await (const frame of renderResponsesStream(events, ctx, async (rendered) => {
    if (beforeTerminal) stored.push(rendered);
    await store(rendered);
  }))
    raw.push(frame);
  const frames = raw.map(parseFrame);
  return { raw, frames, types: frames.map((frame) => frame.event), stored };
}

const start: ChatEvent = { type: 'start', id: 'msg_up', model: 'claude-sonnet-4', created: 1_760_000_001, usage: { inputTokens: 20 } };
const finish = (finishReason: Extract<ChatEvent, { type: 'finish' }>['finishReason'] = 'stop'): ChatEvent => ({
  type: 'finish',
  finishReason,
  usage: { inputTokens: 20, outputTokens: 5 },
});

const OPENING = ['response.created', 'response.in_progress'];
const MESSAGE = (deltas: number) => [
  'response.output_item.added',
  'response.content_part.added',
  ...Array<string>(deltas).fill('response.output_text.delta'),
  'response.output_text.done',
  'response.content_part.done',
  'response.output_item.done',
];
const CALL = (deltas: number) => [
  'response.output_item.added',
  ...Array<string>(deltas).fill('response.function_call_arguments.delta'),
  'response.function_call_arguments.done',
  'response.output_item.done',
];

/** The SDK's own accumulator over every event but the terminal one must give the terminal response's output. */
function expectSdkRebuildsOutput(frames: Frame[]): OpenAIResponse {
  let snapshot: OpenAIResponse | undefined;
  for (const frame of frames.slice(0, -1)) snapshot = accumulateResponse(frame.data as unknown as ResponseStreamEvent, snapshot);
  const terminal = frames[frames.length - 1].data.response as OpenAIResponse;
  expect(snapshot?.output).toEqual(terminal.output);
  return terminal;
}

function expectSequenceNumbersFromZero(frames: Frame[]): void {
  expect(frames.map((frame) => frame.data.sequence_number)).toEqual(frames.map((_, index) => index));
}

describe('renderResponsesStream', () => {
  it('streams a text answer in OpenAI’s event order, numbered from 0, ending with response.completed', async () => {
    const { frames, types, stored } = await run(from([start, { type: 'text_delta', text: 'Hel' }, { type: 'text_delta', text: 'lo' }, finish()]));
    expect(types).toEqual([...OPENING, ...MESSAGE(2), 'response.completed']);
    expectSequenceNumbersFromZero(frames);

    const [created, inProgress, added, partAdded, delta1, delta2, textDone, partDone, itemDone, completed] = frames.map((frame) => frame.data);
    expect(created.response).toMatchObject({
      id: 'resp_stream_1',
      object: 'response',
      created_at: 1_760_000_000,
      status: 'in_progress',
      output: [],
      usage: null,
      store: true,
    });
    expect(inProgress.response).toEqual(created.response);
    const id = (added.item as { id: string }).id;
    expect(id).toMatch(MSG);
    expect(added).toEqual({
      type: 'response.output_item.added',
      sequence_number: 2,
      output_index: 0,
      item: { id, type: 'message', status: 'in_progress', content: [], role: 'assistant' },
    });
    expect(partAdded).toEqual({
      type: 'response.content_part.added',
      sequence_number: 3,
      item_id: id,
      output_index: 0,
      content_index: 0,
      part: { type: 'output_text', annotations: [], logprobs: [], text: '' },
    });
    expect(delta1).toEqual({
      type: 'response.output_text.delta',
      sequence_number: 4,
      item_id: id,
      output_index: 0,
      content_index: 0,
      logprobs: [],
      delta: 'Hel',
    });
    expect(delta2).toMatchObject({ delta: 'lo', sequence_number: 5 });
    expect(textDone).toEqual({
      type: 'response.output_text.done',
      sequence_number: 6,
      item_id: id,
      output_index: 0,
      content_index: 0,
      logprobs: [],
      text: 'Hello',
    });
    expect(partDone).toMatchObject({
      item_id: id,
      output_index: 0,
      content_index: 0,
      part: { type: 'output_text', annotations: [], logprobs: [], text: 'Hello' },
    });
    const message = {
      id,
      type: 'message',
      status: 'completed',
      content: [{ type: 'output_text', annotations: [], logprobs: [], text: 'Hello' }],
      role: 'assistant',
    };
    expect(itemDone).toEqual({ type: 'response.output_item.done', sequence_number: 8, output_index: 0, item: message });
    expect(completed.response).toMatchObject({
      id: 'resp_stream_1',
      status: 'completed',
      error: null,
      incomplete_details: null,
      output: [message],
      usage: {
        input_tokens: 20,
        input_tokens_details: { cached_tokens: 0, cache_write_tokens: 0 },
        output_tokens: 5,
        output_tokens_details: { reasoning_tokens: 0 },
        total_tokens: 25,
      },
    });
    expect(stored).toHaveLength(1);
    expect(stored[0].object).toEqual(completed.response);
    expect(stored[0].outputItems).toEqual([message]);
    expectSdkRebuildsOutput(frames);
  });

  it('streams function calls, each closed before the next opens, with call_id the canonical id', async () => {
    const { frames, types } = await run(
      from([
        start,
        { type: 'text_delta', text: 'Checking.' },
        { type: 'tool_call_start', index: 1, id: 'toolu_A', name: 'get_weather' },
        { type: 'tool_call_delta', index: 1, argumentsDelta: '{"city":' },
        { type: 'tool_call_delta', index: 1, argumentsDelta: '"Paris"}' },
        { type: 'tool_call_start', index: 2, id: 'toolu_B', name: 'get_time' },
        finish('tool_calls'),
      ]),
    );
    expect(types).toEqual([...OPENING, ...MESSAGE(1), ...CALL(2), ...CALL(0), 'response.completed']);
    expectSequenceNumbersFromZero(frames);
    const data = frames.map((frame) => frame.data);
    const callA = data[8];
    expect(callA).toMatchObject({ type: 'response.output_item.added', output_index: 1 });
    const idA = (callA.item as { id: string }).id;
    expect(idA).toMatch(FC);
    expect(callA.item).toEqual({ id: idA, type: 'function_call', status: 'in_progress', arguments: '', call_id: 'toolu_A', name: 'get_weather' });
    expect(data[9]).toEqual({ type: 'response.function_call_arguments.delta', sequence_number: 9, item_id: idA, output_index: 1, delta: '{"city":' });
    expect(data[11]).toEqual({
      type: 'response.function_call_arguments.done',
      sequence_number: 11,
      item_id: idA,
      output_index: 1,
      name: 'get_weather',
      arguments: '{"city":"Paris"}',
    });
    expect(data[12].item).toEqual({
      id: idA,
      type: 'function_call',
      status: 'completed',
      arguments: '{"city":"Paris"}',
      call_id: 'toolu_A',
      name: 'get_weather',
    });
    // A call without arguments still gets a JSON object.
    expect(data[14]).toMatchObject({ type: 'response.function_call_arguments.done', output_index: 2, name: 'get_time', arguments: '{}' });
    expect(data[15].item).toMatchObject({ type: 'function_call', status: 'completed', arguments: '{}', call_id: 'toolu_B' });
    const terminal = expectSdkRebuildsOutput(frames);
    expect(terminal.output.map((item) => item.type)).toEqual(['message', 'function_call', 'function_call']);
  });

  it('streams signed reasoning without a summary as an item alone, its sealed proof stored but shown only when included', async () => {
    const events = (): AsyncIterable<ChatEvent> =>
      from([
        start,
        { type: 'thinking_delta', text: 'The user ' },
        { type: 'thinking_delta', text: 'wants weather.' },
        { type: 'thinking_delta', text: '', signature: 'EqQBsig' },
        { type: 'tool_call_start', index: 1, id: 'toolu_A', name: 'get_weather' },
        { type: 'tool_call_delta', index: 1, argumentsDelta: '{}' },
        finish('tool_calls'),
      ]);
    const { frames, types, stored } = await run(events());
    expect(types).toEqual([...OPENING, 'response.output_item.added', 'response.output_item.done', ...CALL(1), 'response.completed']);
    const id = (frames[2].data.item as { id: string }).id;
    expect(id).toMatch(RS);
    expect(frames[2].data.item).toEqual({ id, type: 'reasoning', summary: [] });
    expect(frames[3].data).toEqual({ type: 'response.output_item.done', sequence_number: 3, output_index: 0, item: { id, type: 'reasoning', summary: [] } });
    const sealed = 'sealed(anthropic,EqQBsig,The user wants weather.)';
    expect(stored[0].outputItems[0]).toEqual({ id, type: 'reasoning', summary: [], encrypted_content: sealed });
    expect((stored[0].object.output as unknown[])[0]).toEqual({ id, type: 'reasoning', summary: [], encrypted_content: sealed });
    expect((frames[frames.length - 1].data.response as OpenAIResponse).output[0]).toEqual({ id, type: 'reasoning', summary: [] });
    expectSdkRebuildsOutput(frames);

    const included = await run(events(), context({ include: ['reasoning.encrypted_content'] }));
    expect(included.frames[3].data.item).toMatchObject({ type: 'reasoning', encrypted_content: sealed });
    expect((included.frames[included.frames.length - 1].data.response as OpenAIResponse).output[0]).toMatchObject({ encrypted_content: sealed });
    expectSdkRebuildsOutput(included.frames);
  });

  it('streams the reasoning summary part and its deltas when a summary was asked for', async () => {
    const { frames, types } = await run(
      from([
        start,
        { type: 'thinking_delta', text: 'Think ' },
        { type: 'thinking_delta', text: 'first.', signature: 'sig' },
        { type: 'text_delta', text: 'Done.' },
        finish(),
      ]),
      context({ echo: { reasoning: { effort: 'low', summary: 'auto' } } }),
    );
    expect(types).toEqual([
      ...OPENING,
      'response.output_item.added',
      'response.reasoning_summary_part.added',
      'response.reasoning_summary_text.delta',
      'response.reasoning_summary_text.delta',
      'response.reasoning_summary_text.done',
      'response.reasoning_summary_part.done',
      'response.output_item.done',
      ...MESSAGE(1),
      'response.completed',
    ]);
    const data = frames.map((frame) => frame.data);
    const id = (data[2].item as { id: string }).id;
    expect(data[3]).toEqual({
      type: 'response.reasoning_summary_part.added',
      sequence_number: 3,
      item_id: id,
      output_index: 0,
      summary_index: 0,
      part: { type: 'summary_text', text: '' },
    });
    expect(data[4]).toEqual({
      type: 'response.reasoning_summary_text.delta',
      sequence_number: 4,
      item_id: id,
      output_index: 0,
      summary_index: 0,
      delta: 'Think ',
    });
    expect(data[6]).toEqual({
      type: 'response.reasoning_summary_text.done',
      sequence_number: 6,
      item_id: id,
      output_index: 0,
      summary_index: 0,
      text: 'Think first.',
    });
    expect(data[7]).toMatchObject({ summary_index: 0, part: { type: 'summary_text', text: 'Think first.' } });
    expect(data[8].item).toEqual({ id, type: 'reasoning', summary: [{ type: 'summary_text', text: 'Think first.' }] });
    expect(data[9]).toMatchObject({ type: 'response.output_item.added', output_index: 1 });
    expectSdkRebuildsOutput(frames);
  });

  it('gives alternating thinking, text and calls one item each, in order, with their own output_index', async () => {
    const { frames } = await run(
      from([
        start,
        { type: 'thinking_delta', text: 'a' },
        { type: 'text_delta', text: 'b' },
        { type: 'thinking_delta', text: 'c' },
        { type: 'tool_call_start', index: 0, id: 'call_1', name: 'f' },
        { type: 'tool_call_delta', index: 0, argumentsDelta: '{}' },
        { type: 'text_delta', text: 'd' },
        finish(),
      ]),
    );
    const added = frames
      .filter((frame) => frame.event === 'response.output_item.added')
      .map((frame) => [frame.data.output_index, (frame.data.item as { type: string }).type]);
    expect(added).toEqual([
      [0, 'reasoning'],
      [1, 'message'],
      [2, 'reasoning'],
      [3, 'function_call'],
      [4, 'message'],
    ]);
    // Each item is done before the next is added.
    const lifecycle = frames
      .filter((frame) => frame.event.startsWith('response.output_item.'))
      .map((frame) => `${frame.event.slice(21)}:${frame.data.output_index}`);
    expect(lifecycle).toEqual(['added:0', 'done:0', 'added:1', 'done:1', 'added:2', 'done:2', 'added:3', 'done:3', 'added:4', 'done:4']);
    const ids = frames.filter((frame) => frame.event === 'response.output_item.added').map((frame) => (frame.data.item as { id: string }).id);
    for (const frame of frames) if (typeof frame.data.item_id === 'string') expect(frame.data.item_id).toBe(ids[frame.data.output_index as number]);
    expectSdkRebuildsOutput(frames);
  });

  it.each([
    ['length', 'max_output_tokens'],
    ['content_filter', 'content_filter'],
  ] as const)('ends a %s finish with response.incomplete (%s), the open item incomplete', async (finishReason, reason) => {
    const { frames, types, stored } = await run(from([start, { type: 'text_delta', text: 'Once upon a' }, finish(finishReason)]));
    expect(types).toEqual([...OPENING, ...MESSAGE(1), 'response.incomplete']);
    expect(frames[7].data.item).toMatchObject({ type: 'message', status: 'incomplete' });
    expect(frames[8].data.response).toMatchObject({ status: 'incomplete', incomplete_details: { reason }, completed_at: null, error: null });
    expect(stored[0].object.status).toBe('incomplete');
    expectSdkRebuildsOutput(frames);
  });

  it('gives a refusal without words an empty refusal part, and keeps streamed refusal text as the output_text it was sent as', async () => {
    const silent = await run(from([start, finish('refusal')]));
    expect(silent.types).toEqual([
      ...OPENING,
      'response.output_item.added',
      'response.content_part.added',
      'response.refusal.done',
      'response.content_part.done',
      'response.output_item.done',
      'response.completed',
    ]);
    expect(silent.frames[4].data).toMatchObject({ content_index: 0, output_index: 0, refusal: '' });
    expect(silent.frames[6].data.item).toMatchObject({ type: 'message', status: 'completed', content: [{ type: 'refusal', refusal: '' }] });
    expectSdkRebuildsOutput(silent.frames);

    const said = await run(from([start, { type: 'text_delta', text: "I can't help." }, finish('refusal')]));
    expect(said.types).toEqual([...OPENING, ...MESSAGE(1), 'response.completed']);
    expect((said.frames[8].data.response as OpenAIResponse).output[0]).toMatchObject({ content: [{ type: 'output_text', text: "I can't help." }] });
  });

  it('ends with response.failed after an error event: the open item closed incomplete, the failed response stored first', async () => {
    const { frames, types, stored } = await run(
      from([
        start,
        { type: 'text_delta', text: 'Partial' },
        { type: 'error', error: new GatewayError('rate_limit', 'upstream rate limit reached') },
        { type: 'text_delta', text: 'never shown' },
      ]),
    );
    expect(types).toEqual([...OPENING, ...MESSAGE(1), 'response.failed']);
    expect(frames[7].data.item).toMatchObject({ status: 'incomplete', content: [{ text: 'Partial' }] });
    const failed = frames[8].data.response as Record<string, unknown>;
    expect(failed).toMatchObject({
      status: 'failed',
      error: { code: 'rate_limit_exceeded', message: 'upstream rate limit reached' },
      incomplete_details: null,
      usage: null,
    });
    expect(stored).toHaveLength(1);
    expect(stored[0].object).toEqual(failed);
    expectSequenceNumbersFromZero(frames);
    expectSdkRebuildsOutput(frames);
  });

  it('ends with response.failed when the canonical stream throws or stops after it started, naming no internals', async () => {
    const thrown = await run(from([start, { type: 'text_delta', text: 'x' }], new Error('socket hang up at 10.0.0.7')));
    expect(thrown.types.at(-1)).toBe('response.failed');
    expect(thrown.frames.at(-1)?.data.response).toMatchObject({ status: 'failed', error: { code: 'server_error', message: 'internal error' } });
    expect(thrown.stored[0].object.status).toBe('failed');

    const cut = await run(from([start, { type: 'text_delta', text: 'x' }]));
    expect(cut.types).toEqual([...OPENING, ...MESSAGE(1), 'response.failed']);
    expect(cut.frames.at(-1)?.data.response).toMatchObject({
      error: { code: 'server_error', message: 'upstream stream ended before the response was complete' },
    });
  });

  it('throws from the first next() when the canonical stream fails before its first event, having stored nothing', async () => {
    const calls: RenderedResponse[] = [];
    const store = async (rendered: RenderedResponse) => void calls.push(rendered);
    const failing: AsyncIterable<ChatEvent> = {
      [Symbol.asyncIterator]: () => ({ next: () => Promise.reject(new GatewayError('overloaded', 'all channels busy')) }),
    };
    await expect(renderResponsesStream(failing, context(), store)[Symbol.asyncIterator]().next()).rejects.toMatchObject({ kind: 'overloaded' });
    const errorFirst = from([{ type: 'error', error: new GatewayError('rate_limit', 'slow down') }]);
    await expect(renderResponsesStream(errorFirst, context(), store)[Symbol.asyncIterator]().next()).rejects.toMatchObject({ kind: 'rate_limit' });
    await expect(renderResponsesStream(from([]), context(), store)[Symbol.asyncIterator]().next()).rejects.toMatchObject({ kind: 'upstream' });
    expect(calls).toEqual([]);
  });

  it('yields the terminal event only once beforeTerminal has finished', async () => {
    let release!: () => void;
    const stored = new Promise<void>((resolve) => {
      release = resolve;
    });
    let storing = false;
    const frames = renderResponsesStream(from([start, { type: 'text_delta', text: 'Hi' }, finish()]), context(), async () => {
      storing = true;
      await stored;
    })[Symbol.asyncIterator]();
    const seen: string[] = [];
    for (let i = 0; i < 8; i++) seen.push(parseFrame((await frames.next()).value as string).event);
    expect(seen.at(-1)).toBe('response.output_item.done');
    let terminal: IteratorResult<string> | undefined;
    const pending = frames.next().then((result) => {
      terminal = result;
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(storing).toBe(true);
    expect(terminal).toBeUndefined();
    release();
    await pending;
    expect(parseFrame(terminal?.value as string).event).toBe('response.completed');
    expect((await frames.next()).done).toBe(true);
  });

  it('ends with response.failed, not completed, when storing the response fails (the client must not count on it)', async () => {
    let calls = 0;
    const { frames, types } = await run(from([start, { type: 'text_delta', text: 'Hi' }, finish()]), context(), async () => {
      calls++;
      throw new Error('database is locked');
    });
    expect(calls).toBe(1);
    expect(types).toEqual([...OPENING, ...MESSAGE(1), 'response.failed']);
    const failed = frames.at(-1)?.data.response as Record<string, unknown>;
    expect(failed).toMatchObject({ status: 'failed', error: { code: 'server_error' } });
    expect(JSON.stringify(failed)).not.toContain('database');
    expect((failed.output as unknown[]).length).toBe(1);
  });

  it('pads delta events with an obfuscation field when asked, and only delta events', async () => {
    const events = (): AsyncIterable<ChatEvent> =>
      from([
        start,
        { type: 'thinking_delta', text: 'hmm' },
        { type: 'text_delta', text: 'Hello' },
        { type: 'tool_call_start', index: 0, id: 'c', name: 'f' },
        { type: 'tool_call_delta', index: 0, argumentsDelta: '{"a":1}' },
        finish(),
      ]);
    const ctx = context({ includeObfuscation: true, echo: { reasoning: { summary: 'auto' } } });
    const { frames } = await run(events(), ctx);
    const deltas = frames.filter((frame) => frame.event.endsWith('.delta'));
    expect(deltas.map((frame) => frame.event)).toEqual([
      'response.reasoning_summary_text.delta',
      'response.output_text.delta',
      'response.function_call_arguments.delta',
    ]);
    for (const frame of deltas) {
      expect(frame.data.obfuscation).toMatch(/^[A-Za-z0-9_-]+$/);
      expect(((frame.data.delta as string).length + (frame.data.obfuscation as string).length) % 16).toBe(0);
    }
    for (const frame of frames) if (!frame.event.endsWith('.delta')) expect(frame.data).not.toHaveProperty('obfuscation');
    expectSdkRebuildsOutput(frames);

    const plain = await run(events(), { ...ctx, includeObfuscation: false });
    for (const frame of plain.frames) expect(frame.data).not.toHaveProperty('obfuscation');
  });

  it('keeps a late argument delta of a call already closed in the stored and final response', async () => {
    const { frames, stored } = await run(
      from([
        start,
        { type: 'tool_call_start', index: 0, id: 'call_1', name: 'f' },
        { type: 'tool_call_delta', index: 0, argumentsDelta: '{"a":' },
        { type: 'tool_call_start', index: 1, id: 'call_2', name: 'g' },
        { type: 'tool_call_delta', index: 0, argumentsDelta: '1}' },
        { type: 'tool_call_delta', index: 1, argumentsDelta: '{}' },
        finish('tool_calls'),
      ]),
    );
    expect(stored[0].outputItems.map((item) => item.arguments)).toEqual(['{"a":1}', '{}']);
    expect((frames[frames.length - 1].data.response as OpenAIResponse).output).toMatchObject([{ arguments: '{"a":1}' }, { arguments: '{}' }]);
  });

  it('gives frames the openai SDK’s stream helper turns back into the same final response', async () => {
    const ctx = context({ echo: { reasoning: { summary: 'auto' }, store: true }, includeObfuscation: true });
    const { raw, stored } = await run(
      from([
        start,
        { type: 'thinking_delta', text: 'Plan.', signature: 'sig' },
        { type: 'text_delta', text: 'Calling ' },
        { type: 'text_delta', text: 'a tool.' },
        { type: 'tool_call_start', index: 2, id: 'call_9', name: 'lookup' },
        { type: 'tool_call_delta', index: 2, argumentsDelta: '{"q":"x"}' },
        finish('tool_calls'),
      ]),
      ctx,
    );
    const client = new OpenAI({
      apiKey: 'test',
      baseURL: 'http://127.0.0.1:9/v1',
      maxRetries: 0,
      fetch: async () => new Response(raw.join(''), { status: 200, headers: { 'content-type': 'text/event-stream' } }),
    });
    const stream = client.responses.stream({ model: 'claude-sonnet-4', input: 'hi' });
    const snapshots: string[] = [];
    stream.on('response.output_text.delta', (event) => snapshots.push(event.snapshot));
    const final = await stream.finalResponse();
    expect(snapshots).toEqual(['Calling ', 'Calling a tool.']);
    expect(final.id).toBe('resp_stream_1');
    expect(final.status).toBe('completed');
    expect(final.output_text).toBe('Calling a tool.');
    const expected = stored[0].outputItems.map(({ encrypted_content: _hidden, ...item }) => item);
    expect(final.output).toMatchObject(expected);
    expect(final.usage).toEqual(stored[0].object.usage);
  });
});
