import { describe, expect, it } from 'vitest';
import { channelDefaults } from '../config/defaults.js';
import type { ChatEvent } from '../core/chat.js';
import { GatewayError } from '../core/errors.js';
import type { AuthenticatedKey } from '../core/key.js';
import type { OpenCall, UsageRecorder } from '../ledger/usage-recorder.js';
import type { Provider } from '../providers/types.js';
import type { UsageRow } from '../store/usage-repository.js';
import { Catalog } from '../routing/catalog.js';
import { ChannelRegistry } from '../routing/channel-registry.js';
import { CircuitBreaker } from '../routing/circuit-breaker.js';
import type { ProviderRegistry } from '../providers/registry.js';
import { type CallEnding, CallLifecycle, type CallSubject, type LifecycleHooks } from './call-lifecycle.js';
import { meterChatStream } from './meter-chat-stream.js';

const KEY: AuthenticatedKey = { id: 'k1', name: 'test', models: null, isMaster: false, accountId: null };
const fakeProvider: Provider = { name: 'openai', operations: new Set(['chat', 'embed']) };

function setup(options: { hooks?: LifecycleHooks[]; channels?: string[]; recorder?: UsageRecorder } = {}) {
  const rows: UsageRow[] = [];
  const opens: OpenCall[] = [];
  const recorder =
    options.recorder ??
    ({
      begin: async (open: OpenCall) => void opens.push(open),
      record: async (row: UsageRow) => void rows.push(row),
    } as unknown as UsageRecorder);
  const providers = { get: () => fakeProvider } as unknown as ProviderRegistry;
  const catalog = new Catalog();
  const registry = new ChannelRegistry(
    { providers, catalog, sandboxFallback: false },
    (options.channels ?? ['one', 'two']).map((name) => ({ ...channelDefaults(), name, provider: 'openai', models: ['textmodel-b-*', 'text-embedding-*'] })),
  );
  const lifecycle = new CallLifecycle({ registry, catalog, recorder, breaker: new CircuitBreaker(5, 1000), maxAttempts: 3, hooks: options.hooks });
  return { rows, opens, lifecycle };
}

function subject(overrides: Partial<CallSubject> = {}): CallSubject {
  return {
    key: KEY,
    surface: 'openai',
    requestId: 'req-1',
    signal: new AbortController().signal,
    model: 'textmodel-b-4o',
    operation: 'chat',
    stream: false,
    ...overrides,
  };
}

describe('CallLifecycle.admit', () => {
  it('refuses a model outside the key’s list with permission, before any hook runs', async () => {
    const admitted: string[] = [];
    const { lifecycle } = setup({ hooks: [{ admit: (call) => void admitted.push(call.subject.requestId) }] });
    await expect(lifecycle.admit(subject({ key: { ...KEY, models: ['textmodel-a-*'] } }))).rejects.toMatchObject({
      kind: 'permission',
      code: 'model_not_allowed',
    });
    expect(admitted).toEqual([]);
  });

  it('refuses an operation the catalog model does not serve with a 400 naming model and operation', async () => {
    const { lifecycle } = setup();
    const error = await lifecycle.admit(subject({ operation: 'embed' })).catch((e: GatewayError) => e);
    expect(error).toBeInstanceOf(GatewayError);
    expect((error as GatewayError).status).toBe(400);
    expect((error as GatewayError).message).toContain('textmodel-b-4o');
    expect((error as GatewayError).message).toContain('embeddings');
  });

  it('answers not_found for a model no channel serves', async () => {
    const { lifecycle } = setup();
    await expect(lifecycle.admit(subject({ model: 'no-such-model' }))).rejects.toMatchObject({ kind: 'not_found', code: 'model_not_found' });
  });

  it('lets an admit hook refuse the call, and still ends it exactly once for the hooks', async () => {
    const ends: CallEnding[] = [];
    const { lifecycle, rows } = setup({
      hooks: [{ admit: () => Promise.reject(new GatewayError('rate_limit', 'slow down', { retryAfter: 3 })), end: (_call, ending) => void ends.push(ending) }],
    });
    await expect(lifecycle.admit(subject())).rejects.toMatchObject({ kind: 'rate_limit' });
    expect(ends.map((e) => e.outcome)).toEqual(['rate_limit']);
    expect(rows).toEqual([]); // no channel was tried: nothing to bill
    expect(lifecycle.active).toBe(0);
  });
});

describe('Call', () => {
  it('records one usage row for a settled call, with hooks at attempt start, first byte and end', async () => {
    const seen: string[] = [];
    const { lifecycle, rows } = setup({
      hooks: [
        {
          attemptStart: (_c, route) => void seen.push(`start:${route.channel}`),
          firstByte: (_c, route) => void seen.push(`first:${route.channel}`),
          end: (_c, ending) => void seen.push(`end:${ending.outcome}`),
        },
      ],
    });
    const call = await lifecycle.admit(subject());
    expect(lifecycle.active).toBe(1);
    const answeredBy = await call.attempt(async (channel) => {
      if (seen.length === 1) throw new GatewayError('overloaded', 'busy', { retryable: true });
      return channel.name;
    });
    call.settle({ inputTokens: 10, outputTokens: 5 });
    call.settle({ inputTokens: 99, outputTokens: 99 });
    call.fail(new Error('late'));
    expect(seen.slice(-2)).toEqual([`first:${answeredBy}`, 'end:ok']);
    expect(seen.filter((s) => s.startsWith('start:'))).toHaveLength(2);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ request_id: 'req-1', outcome: 'ok', input_tokens: 10, output_tokens: 5, channel: answeredBy, key_id: 'k1' });
    // 10 tokens at $2.50 and 5 at $10 per million: 25 + 50 µUSD = 75,000 nUSD.
    expect(rows[0].cost_nusd).toBe(75_000);
    expect(lifecycle.active).toBe(0);
  });

  it('journals the call open and its usage row under the key’s account', async () => {
    const { lifecycle, rows, opens } = setup();
    const call = await lifecycle.admit(subject({ key: { ...KEY, accountId: 'acct_7' } }));
    await call.attempt(async (channel) => channel.name);
    await call.settle({ inputTokens: 1, outputTokens: 1 });
    expect(opens).toEqual([expect.objectContaining({ request_id: 'req-1', account_id: 'acct_7' })]);
    expect(rows).toEqual([expect.objectContaining({ request_id: 'req-1', account_id: 'acct_7' })]);
    const operator = await lifecycle.admit(subject({ requestId: 'req-2' }));
    await operator.attempt(async (channel) => channel.name);
    await operator.settle(undefined);
    expect(rows[1]).toMatchObject({ request_id: 'req-2', account_id: null });
  });

  it("holds a stream's answer until its open line is journaled, and lets a whole answer's open line wait (unless asked for)", async () => {
    const asked: { id: string; lazily: boolean }[] = [];
    let journalOpens!: () => void;
    const journaled = new Promise<void>((resolve) => (journalOpens = resolve));
    const recorder = {
      begin: (open: OpenCall, options: { lazily?: boolean } = {}) => {
        asked.push({ id: open.request_id, lazily: options.lazily === true });
        return journaled;
      },
      record: async () => undefined,
      flushJournalSync: () => journalOpens(),
    } as unknown as UsageRecorder;
    const { lifecycle } = setup({ recorder });
    const whole = await lifecycle.admit(subject({ requestId: 'whole' }));
    expect(await whole.attempt(async (channel) => channel.name)).toBeTypeOf('string');
    let streamAnswered = false;
    const stream = await lifecycle.admit(subject({ requestId: 'stream', stream: true }));
    const answered = stream.attempt(async (channel) => channel.name).then(() => (streamAnswered = true));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(streamAnswered).toBe(false);
    // Asking whether the whole answer's open line is in has the journal written at once.
    await whole.opened();
    await answered;
    expect(asked).toEqual([
      { id: 'whole', lazily: true },
      { id: 'stream', lazily: false },
    ]);
  });

  it('ends a call whose every attempt failed as failed, once, naming the last channel', async () => {
    const { lifecycle, rows } = setup();
    const call = await lifecycle.admit(subject());
    await expect(call.attempt(async () => Promise.reject(new GatewayError('upstream', 'down', { retryable: true })))).rejects.toThrow('down');
    call.settle({ inputTokens: 1, outputTokens: 1 });
    expect(rows).toHaveLength(1);
    expect(rows[0].outcome).toBe('upstream');
    expect(rows[0].input_tokens).toBe(0);
  });

  it('records a client disconnect as client_closed whatever error it caused', async () => {
    const { lifecycle, rows } = setup();
    const abort = new AbortController();
    const call = await lifecycle.admit(subject({ signal: abort.signal }));
    await expect(
      call.attempt(async () => {
        abort.abort();
        throw new GatewayError('upstream', 'socket hang up', { retryable: true });
      }),
    ).rejects.toThrow();
    expect(rows.map((r) => r.outcome)).toEqual(['client_closed']);
  });
});

async function* events(list: ChatEvent[], failAfter?: Error): AsyncGenerator<ChatEvent> {
  for (const event of list) yield event;
  if (failAfter) throw failAfter;
}

const START: ChatEvent = { type: 'start', id: 'c1', model: 'upstream-name', created: 1 };

describe('meterChatStream', () => {
  it('names the public model, settles at finish with the upstream usage, once', async () => {
    const { lifecycle, rows } = setup();
    const call = await lifecycle.admit(subject({ stream: true }));
    await call.attempt(async () => 'ok');
    const out: ChatEvent[] = [];
    const usage = { inputTokens: 7, outputTokens: 3 };
    for await (const e of meterChatStream(events([START, { type: 'text_delta', text: 'hi' }, { type: 'finish', finishReason: 'stop', usage }]), call, {
      model: 'textmodel-b-4o',
      estimateInput: () => 0,
    })) {
      out.push(e);
    }
    expect(out[0]).toMatchObject({ type: 'start', model: 'textmodel-b-4o' });
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ outcome: 'ok', input_tokens: 7, output_tokens: 3, stream: 1 });
  });

  it('bills an abandoned stream for the text produced so far and records client_closed', async () => {
    const { lifecycle, rows } = setup();
    const abort = new AbortController();
    const call = await lifecycle.admit(subject({ stream: true, signal: abort.signal }));
    await call.attempt(async () => 'ok');
    const text = 'The quick brown fox jumps over the lazy dog. '.repeat(20);
    const stream = meterChatStream(events([START, { type: 'text_delta', text }, { type: 'text_delta', text: 'never read' }]), call, {
      model: 'textmodel-b-4o',
      estimateInput: () => 42,
    });
    await stream.next();
    await stream.next();
    abort.abort();
    await stream.return(undefined);
    await expect.poll(() => rows.length).toBe(1);
    const { countTokens } = await import('gpt-tokenizer');
    expect(rows[0]).toMatchObject({ outcome: 'client_closed', input_tokens: 42, output_tokens: countTokens(text) });
  });

  it('keeps the upstream’s own counts when it reported them before the client left', async () => {
    const { lifecycle, rows } = setup();
    const call = await lifecycle.admit(subject({ stream: true }));
    await call.attempt(async () => 'ok');
    const stream = meterChatStream(
      events([
        { ...START, usage: { inputTokens: 100 } },
        { type: 'text_delta', text: 'abc' },
        { type: 'usage', usage: { outputTokens: 9 } },
        { type: 'text_delta', text: 'x' },
      ]),
      call,
      { model: 'textmodel-b-4o', estimateInput: () => 1 },
    );
    for (let i = 0; i < 3; i++) await stream.next();
    await stream.return(undefined);
    await expect.poll(() => rows.length).toBe(1);
    expect(rows[0]).toMatchObject({ outcome: 'client_closed', input_tokens: 100, output_tokens: 9 });
  });

  it('ends a stream that fails mid-way (error event, then a thrown error) exactly once as failed', async () => {
    const { lifecycle, rows } = setup();
    const call = await lifecycle.admit(subject({ stream: true }));
    await call.attempt(async () => 'ok');
    const failing = events(
      [START, { type: 'text_delta', text: 'partial' }, { type: 'error', error: new GatewayError('upstream', 'mid-stream') }],
      new Error('then thrown'),
    );
    await expect(async () => {
      for await (const _ of meterChatStream(failing, call, { model: 'textmodel-b-4o', estimateInput: () => 5 })) {
        // drain
      }
    }).rejects.toThrow('then thrown');
    await expect.poll(() => rows.length).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ outcome: 'upstream', input_tokens: 5 });
    expect(rows[0].output_tokens).toBeGreaterThan(0);
  });
});

describe('meterChatStream, a client gone before the first event', () => {
  it('ends the call as client_closed, billed for its input, though the stream was never read', async () => {
    const { lifecycle, rows } = setup();
    const abort = new AbortController();
    const call = await lifecycle.admit(subject({ stream: true, signal: abort.signal }));
    await call.attempt(async () => 'ok');
    meterChatStream(events([START]), call, { model: 'textmodel-b-4o', estimateInput: () => 17 });
    abort.abort();
    await expect.poll(() => rows.length).toBe(1);
    expect(rows[0]).toMatchObject({ outcome: 'client_closed', input_tokens: 17, output_tokens: 0 });
  });
});
