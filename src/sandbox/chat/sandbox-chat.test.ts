import { countTokens } from 'gpt-tokenizer';
import { describe, expect, it } from 'vitest';
import type { ChatEvent, ChatRequest, ChatResponse, ToolDefinition } from '../../core/chat.js';
import { GatewayError } from '../../core/errors.js';
import type { Attempt } from '../../providers/types.js';
import { buildTestPdf } from '../../../test/helpers/build-test-pdf.js';
import { createSchemaValidator } from '../../../test/helpers/json-schema-validator.js';
import { createSandboxProvider } from '../index.js';
import { DOCUMENT_INPUT_TOKENS } from '../../core/count-prompt-tokens.js';

const MARKER = '[gengate sandbox — simulated response, no model was called]';

const WEATHER: ToolDefinition = {
  name: 'get_weather',
  description: 'Current weather for a city',
  parameters: {
    type: 'object',
    properties: { city: { type: 'string' }, unit: { type: 'string', enum: ['celsius', 'fahrenheit'] } },
    required: ['city', 'unit'],
    additionalProperties: false,
  },
};
const CLOCK: ToolDefinition = { name: 'get_time', parameters: { type: 'object', properties: { zone: { type: 'string' } }, required: ['zone'] } };

function attempt(
  options: Record<string, unknown> = {},
  signal = new AbortController().signal,
  channel = 'sandbox-a',
  upstreamModel = 'sandbox-model',
): Attempt {
  return {
    channel: { name: channel, provider: 'sandbox', baseUrl: '', apiKey: '', headers: {}, timeoutMs: 10_000, options },
    upstreamModel,
    signal,
    requestId: 'req-1',
  };
}

function ask(text: string, extra: Partial<ChatRequest> = {}): ChatRequest {
  return { model: 'textmodel-b-4o', messages: [{ role: 'user', content: [{ type: 'text', text }] }], stream: false, ...extra };
}

function textOf(response: ChatResponse): string {
  expect(response.content).toHaveLength(1);
  const part = response.content[0];
  if (part.type !== 'text') throw new Error(`expected text, got ${part.type}`);
  return part.text;
}

async function collect(events: AsyncIterable<ChatEvent>): Promise<ChatEvent[]> {
  const out: ChatEvent[] = [];
  for await (const event of events) out.push(event);
  return out;
}

const fast = createSandboxProvider({ tokensPerSecond: 0, firstTokenDelayMs: 0, failureRate: 0 });
const chat = fast.chat!;

describe('sandbox provider', () => {
  it('declares itself as a simulated chat provider without a dialect or pass-through', () => {
    expect(fast.name).toBe('sandbox');
    expect(fast.simulated).toBe(true);
    expect(fast.dialect).toBeUndefined();
    expect([...fast.operations]).toEqual([
      'chat',
      'embed',
      'image.generate',
      'image.edit',
      'image.remix',
      'image.blend',
      'image.imagine',
      'image.describe',
      'image.action',
      'video.generate',
    ]);
    expect(chat.passthrough).toBeUndefined();
  });
});

describe('sandbox chat answers', () => {
  it('answers the same request identically and different requests differently', async () => {
    const a = await chat.chat(ask('Hello there'), attempt());
    const b = await chat.chat(ask('Hello there'), attempt());
    const c = await chat.chat(ask('Hello over there'), attempt());
    expect({ ...b, created: 0, id: '' }).toEqual({ ...a, created: 0, id: '' });
    expect(textOf(c)).not.toBe(textOf(a));
  });

  it('finding 15: gives every answer and tool call its own id, even for identical requests', async () => {
    const a = await chat.chat(ask('Hello there'), attempt());
    const b = await chat.chat(ask('Hello there'), attempt());
    expect(a.id).toMatch(/^sandbox-[0-9a-f]{24}$/);
    expect(b.id).not.toBe(a.id);
    const request = ask('use get_weather for Oslo', { tools: [WEATHER] });
    const [first, second] = [await chat.chat(request, attempt()), await chat.chat(request, attempt())];
    const [callA, callB] = [first.content[1], second.content[1]];
    if (callA.type !== 'tool_call' || callB.type !== 'tool_call') throw new Error('expected tool calls');
    expect(callB.id).not.toBe(callA.id);
    expect(callB.arguments).toBe(callA.arguments);
  });

  it('starts with the simulation marker and names the model', async () => {
    const response = await chat.chat(ask('Hello', { model: 'textmodel-a-opus-4-5-20251101' }), attempt());
    const text = textOf(response);
    expect(text.startsWith(`${MARKER} Simulated answer for model textmodel-a-opus-4-5-20251101.`)).toBe(true);
    expect(response.model).toBe('textmodel-a-opus-4-5-20251101');
    expect(response.id).toMatch(/^sandbox-[0-9a-f]{24}$/);
    expect(Math.abs(response.created - Date.now() / 1000)).toBeLessThan(5);
    expect(response.finishReason).toBe('stop');
    expect(response.stopSequence).toBeNull();
  });

  it('writes 20 to 80 words of prose after the marker', async () => {
    for (const question of ['a', 'b', 'c', 'd', 'e', 'f']) {
      const text = textOf(await chat.chat(ask(question), attempt()));
      const prose = text.slice(`${MARKER} Simulated answer for model textmodel-b-4o. `.length);
      const words = prose.split(' ').length;
      expect(words).toBeGreaterThanOrEqual(20);
      expect(words).toBeLessThanOrEqual(80);
    }
  });

  it('says how many images and documents the last user turn carried', async () => {
    const request: ChatRequest = {
      model: 'textmodel-c-2.5-pro',
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Compare these' },
            { type: 'image', source: { kind: 'url', url: 'https://example.com/1.png' } },
            { type: 'image', source: { kind: 'base64', mediaType: 'image/png', data: 'iVBORw0KGgo=' } },
            { type: 'document', source: { kind: 'base64', mediaType: 'application/pdf', data: 'JVBERi0=' } },
          ],
        },
      ],
      stream: false,
    };
    const text = textOf(await chat.chat(request, attempt()));
    expect(
      text.startsWith(
        `${MARKER} Simulated answer for model textmodel-c-2.5-pro. It received 2 images and 1 PDF document it could not read (Invalid PDF structure). `,
      ),
    ).toBe(true);
  });

  it('reads PDFs for real: pages and characters of text, whose tokens count as input', async () => {
    const lines = [['Quarterly report', 'Revenue grew by twelve percent.'], ['Outlook: steady.'], ['Appendix']];
    const pdf = buildTestPdf(lines).toString('base64');
    const extracted = lines.flat().join('\n');
    const request: ChatRequest = {
      model: 'textmodel-a-sonnet-4-20250514',
      messages: [
        {
          role: 'user',
          content: [
            { type: 'document', source: { kind: 'base64', mediaType: 'application/pdf', data: pdf } },
            { type: 'text', text: 'Summarise it.' },
          ],
        },
      ],
      stream: false,
    };
    const response = await chat.chat(request, attempt());
    expect(
      textOf(response).startsWith(
        `${MARKER} Simulated answer for model textmodel-a-sonnet-4-20250514. It received 1 PDF document: 3 pages, ${extracted.length} characters of text. `,
      ),
    ).toBe(true);
    // 16 + 31 + 16 + 8 characters of lines and 3 newlines.
    expect(extracted.length).toBe(74);
    expect(response.usage.inputTokens).toBe(countTokens(`${extracted}\nSummarise it.`));
    const streamed = await collect(await chat.chatStream({ ...request, stream: true }, attempt()));
    expect(streamed[0]).toMatchObject({ type: 'start', usage: { inputTokens: response.usage.inputTokens } });
  });

  it('describes several documents of each kind, with thousands separators', async () => {
    const long = buildTestPdf([Array.from({ length: 40 }, (_, i) => `Line ${String(i).padStart(2, '0')} of a longer page.`)]).toString('base64');
    const short = buildTestPdf([['One'], ['Two']]).toString('base64');
    const request: ChatRequest = {
      model: 'textmodel-b-4o',
      messages: [
        {
          role: 'user',
          content: [
            { type: 'document', source: { kind: 'base64', mediaType: 'application/pdf', data: long } },
            { type: 'document', source: { kind: 'url', url: `data:application/pdf;base64,${short}` } },
            { type: 'document', source: { kind: 'base64', mediaType: 'text/csv', data: Buffer.from('a,b\n1,2').toString('base64') } },
            { type: 'document', source: { kind: 'url', url: 'https://example.com/a.pdf' } },
            { type: 'document', source: { kind: 'base64', mediaType: 'application/msword', data: 'AAAA' } },
            { type: 'text', text: 'Compare.' },
          ],
        },
      ],
      stream: false,
    };
    const response = await chat.chat(request, attempt());
    // 40 lines of 25 characters and 39 newlines.
    expect(40 * 25 + 39).toBe(1039);
    expect(textOf(response)).toContain(
      'It received 2 PDF documents: 1 page, 1,039 characters of text; 2 pages, 7 characters of text and 1 text document: 7 characters and 1 linked document it did not fetch and 1 document of a type it does not read (application/msword). ',
    );
    const longText = Array.from({ length: 40 }, (_, i) => `Line ${String(i).padStart(2, '0')} of a longer page.`).join('\n');
    expect(response.usage.inputTokens).toBe(countTokens([longText, 'One\nTwo', 'a,b\n1,2', 'Compare.'].join('\n')) + 2 * DOCUMENT_INPUT_TOKENS);
  });

  it('counts usage with the real tokenizer', async () => {
    const request = ask('What is the capital of Norway?', { system: [{ type: 'text', text: 'Answer briefly.' }] });
    const response = await chat.chat(request, attempt());
    expect(response.usage).toEqual({
      inputTokens: countTokens('Answer briefly.\nWhat is the capital of Norway?'),
      outputTokens: countTokens(textOf(response)),
    });
  });

  it('stops at maxTokens with finish reason length', async () => {
    const response = await chat.chat(ask('Hello', { maxTokens: 10 }), attempt());
    const text = textOf(response);
    expect(response.finishReason).toBe('length');
    expect(response.usage.outputTokens).toBe(10);
    expect(countTokens(text)).toBe(10);
    expect(MARKER.startsWith(text)).toBe(true);
  });

  it('cuts before a stop sequence and reports it', async () => {
    const response = await chat.chat(ask('Hello', { stop: ['zzz', ' simulated response'] }), attempt());
    expect(response.content).toEqual([{ type: 'text', text: '[gengate sandbox —' }]);
    expect(response.finishReason).toBe('stop_sequence');
    expect(response.stopSequence).toBe(' simulated response');
    expect(response.usage.outputTokens).toBe(countTokens('[gengate sandbox —'));
  });

  it('acknowledges tool results with text', async () => {
    const request: ChatRequest = {
      model: 'textmodel-b-4o',
      tools: [WEATHER],
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'Weather in Oslo?' }] },
        { role: 'assistant', content: [{ type: 'tool_call', id: 'call_1', name: 'get_weather', arguments: '{"city":"Oslo","unit":"celsius"}' }] },
        { role: 'tool', content: [{ type: 'tool_result', toolCallId: 'call_1', name: 'get_weather', content: '12 C' }] },
      ],
      stream: false,
    };
    const response = await chat.chat(request, attempt());
    expect(textOf(response).startsWith(`${MARKER} Received 1 tool result (get_weather); a real model would now answer from it. `)).toBe(true);
    expect(response.finishReason).toBe('stop');
  });
});

describe('sandbox tool calls', () => {
  /** One simulated call, after the text that says it is simulated. */
  function onlyCall(response: ChatResponse) {
    expect(response.finishReason).toBe('tool_calls');
    expect(response.content).toHaveLength(2);
    const [note, call] = response.content;
    if (call.type !== 'tool_call') throw new Error(`expected a tool call, got ${call.type}`);
    expect(note).toEqual({ type: 'text', text: `[sandbox] simulated a call to ${call.name} (arguments invented from the tool's schema; no model chose it)` });
    expect(call.id).toMatch(/^call_[0-9a-f]{24}$/);
    return call;
  }

  it('tool choice none answers with text even when a tool is asked for', async () => {
    const response = await chat.chat(ask('use get_weather for Oslo', { tools: [WEATHER], toolChoice: { type: 'none' } }), attempt());
    expect(textOf(response).startsWith(MARKER)).toBe(true);
  });

  it('auto calls the tool the user asks for with schema-valid arguments and counts them as output', async () => {
    const response = await chat.chat(ask('Please use get_weather for Oslo', { tools: [WEATHER, CLOCK] }), attempt());
    const call = onlyCall(response);
    expect(call.name).toBe('get_weather');
    const args = JSON.parse(call.arguments) as Record<string, unknown>;
    expect(Object.keys(args).sort()).toEqual(['city', 'unit']);
    expect(typeof args.city).toBe('string');
    expect(['celsius', 'fahrenheit']).toContain(args.unit);
    expect(response.usage.outputTokens).toBe(countTokens((response.content[0] as { text: string }).text) + countTokens(call.arguments));
  });

  it('auto answers with text when a tool is only mentioned, not asked for', async () => {
    const response = await chat.chat(ask('What is the weather in Oslo?', { tools: [WEATHER, CLOCK] }), attempt());
    expect(response.finishReason).toBe('stop');
    expect(textOf(response).startsWith(MARKER)).toBe(true);
  });

  it('auto answers with text when no tool is mentioned', async () => {
    const response = await chat.chat(ask('Tell me a story', { tools: [WEATHER, CLOCK] }), attempt());
    expect(textOf(response).startsWith(MARKER)).toBe(true);
  });

  it('required calls a tool even when none is mentioned', async () => {
    const call = onlyCall(await chat.chat(ask('Tell me a story', { tools: [WEATHER, CLOCK], toolChoice: { type: 'required' } }), attempt()));
    expect(['get_weather', 'get_time']).toContain(call.name);
  });

  it('a named tool choice calls that tool', async () => {
    const call = onlyCall(await chat.chat(ask('weather?', { tools: [WEATHER, CLOCK], toolChoice: { type: 'tool', name: 'get_time' } }), attempt()));
    expect(call.name).toBe('get_time');
    expect(typeof (JSON.parse(call.arguments) as { zone: unknown }).zone).toBe('string');
  });

  it('calls several tools only with parallel tool calls', async () => {
    const question = 'use get_weather and use get_time for Oslo';
    const single = await chat.chat(ask(question, { tools: [WEATHER, CLOCK] }), attempt());
    expect(single.content.map((p) => (p.type === 'tool_call' ? p.name : p.type))).toEqual(['text', 'get_weather']);
    const parallel = await chat.chat(ask(question, { tools: [WEATHER, CLOCK], parallelToolCalls: true }), attempt());
    expect(parallel.content.map((p) => (p.type === 'tool_call' ? p.name : p.type))).toEqual(['text', 'get_weather', 'get_time']);
    expect(parallel.content[0]).toHaveProperty(
      'text',
      "[sandbox] simulated a call to get_weather, get_time (arguments invented from the tool's schema; no model chose it)",
    );
    const ids = parallel.content.flatMap((p) => (p.type === 'tool_call' ? [p.id] : []));
    expect(new Set(ids).size).toBe(2);
  });
});

describe('sandbox streaming', () => {
  it('streams start, token deltas and finish that add up to the plain answer', async () => {
    const plain = await chat.chat(ask('Hello stream'), attempt());
    const events = await collect(await chat.chatStream(ask('Hello stream', { stream: true }), attempt()));
    expect(events[0]).toEqual({
      type: 'start',
      id: expect.stringMatching(/^sandbox-[0-9a-f]{24}$/),
      model: 'textmodel-b-4o',
      created: expect.any(Number),
      usage: { inputTokens: plain.usage.inputTokens },
    });
    const deltas = events.slice(1, -1);
    expect(deltas.every((e) => e.type === 'text_delta')).toBe(true);
    expect(deltas.length).toBe(plain.usage.outputTokens);
    expect(deltas.map((e) => (e.type === 'text_delta' ? e.text : '')).join('')).toBe(textOf(plain));
    expect(events[events.length - 1]).toEqual({ type: 'finish', finishReason: 'stop', stopSequence: null, usage: plain.usage });
  });

  it('streams a tool call as a start and argument pieces', async () => {
    const request = ask('use get_weather in Oslo', { tools: [WEATHER] });
    const plain = await chat.chat(request, attempt());
    const call = plain.content[1];
    if (call.type !== 'tool_call') throw new Error('expected a tool call');
    const events = await collect(await chat.chatStream({ ...request, stream: true }, attempt()));
    const start = events.findIndex((e) => e.type === 'tool_call_start');
    // The note first, as text deltas, then the call.
    expect(
      events
        .slice(1, start)
        .map((e) => (e.type === 'text_delta' ? e.text : ''))
        .join(''),
    ).toBe((plain.content[0] as { text: string }).text);
    expect(events[start]).toEqual({ type: 'tool_call_start', index: 0, id: expect.stringMatching(/^call_[0-9a-f]{24}$/), name: 'get_weather' });
    const pieces = events.slice(start + 1, -1);
    expect(pieces.length).toBeGreaterThan(1);
    expect(pieces.every((e) => e.type === 'tool_call_delta' && e.index === 0)).toBe(true);
    expect(pieces.map((e) => (e.type === 'tool_call_delta' ? e.argumentsDelta : '')).join('')).toBe(call.arguments);
    expect(events[events.length - 1]).toEqual({ type: 'finish', finishReason: 'tool_calls', stopSequence: null, usage: plain.usage });
  });

  it('streams a long answer quickly at a high pace', async () => {
    const provider = createSandboxProvider({ tokensPerSecond: 1_000_000, firstTokenDelayMs: 0 });
    const started = Date.now();
    const events = await collect(
      await provider.chat!.chatStream(ask('a long one', { stream: true, system: [{ type: 'text', text: 'x'.repeat(5000) }] }), attempt()),
    );
    expect(events.length).toBeGreaterThan(20);
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('paces tokens and honours the first-token delay', async () => {
    const provider = createSandboxProvider({ tokensPerSecond: 100, firstTokenDelayMs: 50 });
    const started = performance.now();
    const events = await collect(await provider.chat!.chatStream(ask('paced', { stream: true, maxTokens: 10 }), attempt()));
    // 50 ms before the first token, then 9 gaps of 10 ms: at least ~140 ms; generous lower bound.
    expect(performance.now() - started).toBeGreaterThanOrEqual(100);
    expect(events.filter((e) => e.type === 'text_delta')).toHaveLength(10);
  });

  it('lets channel options override the provider pace', async () => {
    const slow = createSandboxProvider({ tokensPerSecond: 1, firstTokenDelayMs: 5000 });
    const started = Date.now();
    await collect(await slow.chat!.chatStream(ask('override', { stream: true }), attempt({ tokensPerSecond: 0, firstTokenDelayMs: 0 })));
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('stops soon after the attempt is aborted', async () => {
    const provider = createSandboxProvider({ tokensPerSecond: 20, firstTokenDelayMs: 0 });
    const controller = new AbortController();
    const events = await provider.chat!.chatStream(ask('abort me', { stream: true }), attempt({}, controller.signal));
    setTimeout(() => controller.abort(), 150);
    const started = Date.now();
    const seen: ChatEvent[] = [];
    const error = await (async () => {
      try {
        for await (const event of events) seen.push(event);
      } catch (caught) {
        return caught;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(GatewayError);
    expect((error as GatewayError).code).toBe('client_closed');
    expect(Date.now() - started).toBeLessThan(2000);
    expect(seen.some((e) => e.type === 'finish')).toBe(false);
    expect(seen.filter((e) => e.type === 'text_delta').length).toBeLessThan(20);
  });

  it('waits the first-token delay once for a plain answer, and stops it on abort', async () => {
    const provider = createSandboxProvider({ firstTokenDelayMs: 80 });
    const started = performance.now();
    await provider.chat!.chat(ask('delayed'), attempt());
    expect(performance.now() - started).toBeGreaterThanOrEqual(60);

    const slow = createSandboxProvider({ firstTokenDelayMs: 60_000 });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    await expect(slow.chat!.chat(ask('never'), attempt({}, controller.signal))).rejects.toMatchObject({ code: 'client_closed' });
  });
});

describe('sandbox failure injection', () => {
  const injected = { kind: 'overloaded', retryable: true, upstreamStatus: 503, status: 503 };

  it('failureRate 1 fails every request before the first byte with a retryable error', async () => {
    const failing = createSandboxProvider({ failureRate: 1, firstTokenDelayMs: 0 });
    const error = await failing.chat!.chat(ask('hi'), attempt()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GatewayError);
    expect(error).toMatchObject(injected);
    expect((error as GatewayError).message).toMatch(/^sandbox: injected failure/);
    await expect(failing.chat!.chatStream(ask('hi', { stream: true }), attempt())).rejects.toMatchObject(injected);
  });

  it('a channel failureRate overrides the provider setting', async () => {
    await expect(chat.chat(ask('hi'), attempt({ failureRate: 1 }))).rejects.toMatchObject(injected);
    const failing = createSandboxProvider({ failureRate: 1, firstTokenDelayMs: 0 });
    await expect(failing.chat!.chat(ask('hi'), attempt({ failureRate: 0 }))).resolves.toMatchObject({ finishReason: 'stop' });
  });

  it('fails about the configured share of requests, the same requests every time', async () => {
    const outcome = async (i: number, channel = 'sandbox-a'): Promise<boolean> =>
      chat.chat(ask(`question ${i}`), attempt({ failureRate: 0.5 }, undefined, channel)).then(
        () => true,
        () => false,
      );
    const first: boolean[] = [];
    for (let i = 0; i < 200; i++) first.push(await outcome(i));
    const failures = first.filter((ok) => !ok).length;
    expect(failures).toBeGreaterThan(60);
    expect(failures).toBeLessThan(140);
    for (let i = 0; i < 20; i++) expect(await outcome(i)).toBe(first[i]);
    // Another channel rolls differently, so failover can succeed.
    const other: boolean[] = [];
    for (let i = 0; i < 200; i++) other.push(await outcome(i, 'sandbox-b'));
    expect(other.some((ok, i) => ok && !first[i])).toBe(true);
  });

  it('failModels fails requests for those public or upstream model ids', async () => {
    const options = { failModels: ['textmodel-b-4o', 'upstream-broken'] };
    await expect(chat.chat(ask('hi'), attempt(options))).rejects.toMatchObject(injected);
    await expect(chat.chatStream(ask('hi', { stream: true }), attempt(options))).rejects.toMatchObject(injected);
    await expect(chat.chat(ask('hi', { model: 'textmodel-b-4o-mini' }), attempt(options, undefined, 'sandbox-a', 'upstream-broken'))).rejects.toMatchObject(
      injected,
    );
    await expect(chat.chat(ask('hi', { model: 'textmodel-b-4o-mini' }), attempt(options))).resolves.toMatchObject({ finishReason: 'stop' });
  });

  it('failMidStream ends the stream with an error event after some text', async () => {
    const plain = await chat.chat(ask('mid'), attempt());
    const events = await collect(await chat.chatStream(ask('mid', { stream: true }), attempt({ failMidStream: true })));
    expect(events[0].type).toBe('start');
    const last = events[events.length - 1];
    expect(last.type).toBe('error');
    if (last.type !== 'error') return;
    expect(last.error).toBeInstanceOf(GatewayError);
    expect(last.error.message).toBe('sandbox: injected mid-stream failure (failMidStream)');
    const deltas = events.slice(1, -1);
    expect(deltas.length).toBeGreaterThan(0);
    expect(deltas.every((e) => e.type === 'text_delta')).toBe(true);
    const streamed = deltas.map((e) => (e.type === 'text_delta' ? e.text : '')).join('');
    expect(streamed.length).toBeLessThan(textOf(plain).length);
    expect(textOf(plain).startsWith(streamed)).toBe(true);
    expect(events.some((e) => e.type === 'finish')).toBe(false);
  });
});

describe('sandbox chat on hostile tool schemas', () => {
  it('finding 1: a tool schema with minItems 1e9 answers a clear 400 naming the tool and field', async () => {
    const huge: ToolDefinition = {
      name: 'f',
      parameters: { type: 'object', properties: { a: { type: 'array', minItems: 1e9, items: { type: 'integer' } } }, required: ['a'] },
    };
    const error = await chat.chat(ask('hi', { tools: [huge], toolChoice: { type: 'required' } }), attempt()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GatewayError);
    expect(error).toMatchObject({ kind: 'invalid_request', status: 400, param: 'tools' });
    expect((error as GatewayError).message).toBe(
      'tools: the sandbox cannot generate arguments for the tool "f" at a: minItems 1000000000 is more than the 100 items the sandbox generates in an array',
    );
  });

  it('finding 1: bounds several parallel tool calls together', async () => {
    const wide = (name: string): ToolDefinition => ({
      name,
      parameters: { type: 'object', properties: { rows: { type: 'array', minItems: 100, items: { type: 'string', minLength: 1_000 } } }, required: ['rows'] },
    });
    const tools = [wide('one'), wide('two'), wide('three')];
    const error = await chat.chat(ask('use one, use two, use three', { tools, parallelToolCalls: true }), attempt()).catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: 'invalid_request', status: 400 });
    expect((error as GatewayError).message).toMatch(
      /^tools: the sandbox cannot generate arguments for the tool "(two|three)" at rows\[\d+\]: the generated JSON would be longer than/,
    );
  });
});

describe('sandbox structured output', () => {
  const INVOICE = {
    type: 'object',
    properties: {
      id: { type: 'string', format: 'uuid' },
      issued: { type: 'string', format: 'date' },
      lines: {
        type: 'array',
        minItems: 1,
        maxItems: 4,
        items: {
          type: 'object',
          properties: { sku: { type: 'string', pattern: '^[A-Z]{3}-\\d{4}$' }, qty: { type: 'integer', minimum: 1 } },
          required: ['sku', 'qty'],
          additionalProperties: false,
        },
      },
      status: { enum: ['draft', 'sent', 'paid'] },
    },
    required: ['id', 'issued', 'lines', 'status'],
    additionalProperties: false,
  };
  const structured = (extra: Partial<ChatRequest> = {}): ChatRequest =>
    ask('Make an invoice', { responseFormat: { type: 'json_schema', name: 'invoice', schema: INVOICE, strict: true }, ...extra });

  it('answers JSON valid against the response schema, without the marker, the same for the same request', async () => {
    const validate = createSchemaValidator().compile(INVOICE);
    const response = await chat.chat(structured(), attempt());
    const text = textOf(response);
    expect(validate(JSON.parse(text)), text).toBe(true);
    expect(text).not.toContain(MARKER);
    expect(response.finishReason).toBe('stop');
    expect(response.usage.outputTokens).toBe(countTokens(text));
    expect(textOf(await chat.chat(structured(), attempt()))).toBe(text);
  });

  it('answers json_object with a JSON object', async () => {
    const value = JSON.parse(textOf(await chat.chat(ask('Reply in JSON', { responseFormat: { type: 'json_object' } }), attempt())));
    expect(value).toEqual({ answer: expect.any(String) });
  });

  it('keeps the prose answer for a text response format', async () => {
    expect(textOf(await chat.chat(ask('Hi', { responseFormat: { type: 'text' } }), attempt())).startsWith(MARKER)).toBe(true);
  });

  it('streams the same JSON in token pieces', async () => {
    const plain = textOf(await chat.chat(structured(), attempt()));
    const events = await collect(await chat.chatStream(structured({ stream: true }), attempt()));
    const deltas = events.filter((e) => e.type === 'text_delta');
    expect(deltas.length).toBeGreaterThan(5);
    expect(deltas.map((e) => (e.type === 'text_delta' ? e.text : '')).join('')).toBe(plain);
    expect(events[events.length - 1]).toMatchObject({ type: 'finish', finishReason: 'stop', usage: { outputTokens: countTokens(plain) } });
  });

  it('cuts the JSON at maxTokens like a model would, with finish reason length', async () => {
    const response = await chat.chat(structured({ maxTokens: 5 }), attempt());
    expect(response.finishReason).toBe('length');
    expect(response.usage.outputTokens).toBe(5);
    expect(() => JSON.parse(textOf(response))).toThrow();
  });

  it('calls a required tool rather than answering JSON', async () => {
    const response = await chat.chat(structured({ tools: [WEATHER], toolChoice: { type: 'required' } }), attempt());
    expect(response.finishReason).toBe('tool_calls');
  });

  it('refuses a response schema over the bounds with a clear 400', async () => {
    const schema = { type: 'object', properties: { a: { type: 'string', minLength: 1e7 } }, required: ['a'] };
    const error = await chat.chat(ask('hi', { responseFormat: { type: 'json_schema', schema } }), attempt()).catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: 'invalid_request', status: 400 });
    expect((error as GatewayError).message).toBe(
      'structured output: the sandbox cannot generate an answer for the response schema at a: minLength 10000000 is more than the 10000 characters the sandbox generates in a string',
    );
  });
});
