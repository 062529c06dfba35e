import { describe, expect, it } from 'vitest';
import { channelDefaults } from '../config/defaults.js';
import { callAbort } from '../core/call-abort.js';
import { GatewayError } from '../core/errors.js';
import type { AuthenticatedKey } from '../core/key.js';
import type { UsageRecorder } from '../ledger/usage-recorder.js';
import type { ProviderRegistry } from '../providers/registry.js';
import type { Provider } from '../providers/types.js';
import { Catalog } from '../routing/catalog.js';
import { ChannelRegistry } from '../routing/channel-registry.js';
import { CircuitBreaker } from '../routing/circuit-breaker.js';
import type { UsageRow } from '../store/usage-repository.js';
import type { ChatEvent } from '../core/chat.js';
import { type CallEnding, CallLifecycle, type CallSubject } from './call-lifecycle.js';
import { meterChatStream } from './meter-chat-stream.js';

const KEY: AuthenticatedKey = { id: 'k1', name: 'test', models: null, isMaster: false, accountId: null };
const provider: Provider = { name: 'openai', operations: new Set(['chat']) };

function setup() {
  const rows: UsageRow[] = [];
  const ends: CallEnding[] = [];
  const recorder = { begin: async () => undefined, record: async (row: UsageRow) => void rows.push(row) } as unknown as UsageRecorder;
  const catalog = new Catalog();
  const registry = new ChannelRegistry({ providers: { get: () => provider } as unknown as ProviderRegistry, catalog, sandboxFallback: false }, [
    { ...channelDefaults(), name: 'one', provider: 'openai', models: ['textmodel-b-*'] },
  ]);
  const lifecycle = new CallLifecycle({
    registry,
    catalog,
    recorder,
    breaker: new CircuitBreaker(5, 1000),
    maxAttempts: 1,
    hooks: [{ end: (_call, ending) => void ends.push(ending) }],
  });
  return { rows, ends, lifecycle };
}

function subject(signal: AbortSignal = new AbortController().signal, stream = false): CallSubject {
  return { key: KEY, surface: 'openai', requestId: 'req-1', signal, model: 'textmodel-b-4o', operation: 'chat', stream };
}

/** An upstream's stream: a start and some text, then `end` (an error event, or a thrown error). */
async function* upstreamStream(end: ChatEvent | Error): AsyncGenerator<ChatEvent> {
  yield { type: 'start', id: 'x', model: 'm', created: 0 };
  yield { type: 'text_delta', text: 'partial' };
  if (end instanceof Error) throw end;
  yield end;
}

async function drain(stream: AsyncIterable<ChatEvent>): Promise<void> {
  try {
    for await (const _event of stream);
  } catch {
    // The surface renders it; the ending is what is checked.
  }
}

describe('the error type of a call’s ending', () => {
  it('is stored on the usage row and given to the hooks: what the upstream answered', async () => {
    const { rows, ends, lifecycle } = setup();
    const call = await lifecycle.admit(subject());
    await expect(call.attempt(() => Promise.reject(new GatewayError('upstream', 'boom', { upstreamStatus: 500, retryable: true })))).rejects.toThrow();
    expect(rows.map((row) => [row.outcome, row.error_type])).toEqual([['upstream', 'upstream.server_error']]);
    expect(ends.map((ending) => ending.errorType)).toEqual(['upstream.server_error']);
  });

  it('is none for a success', async () => {
    const { rows, ends, lifecycle } = setup();
    const call = await lifecycle.admit(subject());
    await call.attempt(async () => 'ok');
    await call.settle({ inputTokens: 1, outputTokens: 1 });
    expect(rows[0].error_type).toBeNull();
    expect(ends[0].errorType).toBeUndefined();
  });

  it('is the client’s when the client went away mid-call', async () => {
    const { rows, lifecycle } = setup();
    const abort = callAbort();
    const call = await lifecycle.admit(subject(abort.signal));
    await expect(
      call.attempt(() => {
        abort.abort();
        return Promise.reject(new GatewayError('upstream', 'request aborted by the client', { code: 'client_closed' }));
      }),
    ).rejects.toThrow();
    expect(rows.map((row) => [row.outcome, row.error_type])).toEqual([['client_closed', 'client.closed']]);
  });

  it('is the reason of a cut the gateway made (drain deadline, revoked key), not the client_closed the abort caused', async () => {
    for (const [reason, expected] of [
      [new GatewayError('overloaded', 'The gateway is shutting down; retry the request.', { code: 'shutting_down' }), 'gateway.unavailable'],
      [new GatewayError('authentication', 'This API key was revoked.', { code: 'invalid_api_key' }), 'client.auth'],
    ] as const) {
      const { rows, ends, lifecycle } = setup();
      const abort = callAbort();
      const call = await lifecycle.admit(subject(abort.signal));
      await call.attempt(async () => 'answered');
      abort.abort(reason);
      // A stream cut mid-way ends through finish with the abort's outcome and no error of its own.
      await call.finish(call.abortOutcome() ?? 'client_closed', { inputTokens: 1, outputTokens: 1 });
      expect(rows.map((row) => [row.outcome, row.error_type])).toEqual([[reason.kind, expected]]);
      expect(ends[0].errorType).toBe(expected);
    }
  });

  it('is the upstream’s for a stream the upstream broke after it began, by an error event or a thrown error', async () => {
    const overloaded = () => new GatewayError('overloaded', 'overloaded mid-stream', { upstreamStatus: 529 });
    for (const end of [{ type: 'error', error: overloaded() } as ChatEvent, overloaded()]) {
      const { rows, lifecycle } = setup();
      const call = await lifecycle.admit(subject(undefined, true));
      await call.attempt(async () => 'stream');
      await drain(meterChatStream(upstreamStream(end), call, { model: 'textmodel-b-4o', estimateInput: () => 1 }));
      // Ended once the produced text is counted (the tokenizer loads first). Not `gateway.unavailable`, which the kind alone would say.
      await expect.poll(() => rows.map((row) => [row.outcome, row.error_type]), { timeout: 10_000 }).toEqual([['overloaded', 'upstream.overloaded']]);
    }
  });
});
