/**
 * Runs one chat call through the shared attempt loop. Same-dialect calls pass through
 * untranslated; others go through the canonical form. Usage is queued for the ledger when
 * the answer is complete (for streams: when the stream ends).
 */
import type { ChatEvent } from '../core/chat.js';
import { toGatewayError } from '../core/errors.js';
import { mergeUsage, type Usage } from '../core/usage.js';
import type { ChatCall, ChatOutcome, RouteInfo } from '../surfaces/types.js';
import { checkDocumentLimits } from './check-document-limits.js';
import { recordUsage, type MeteredCall } from './record-usage.js';
import { modelNotFound, runAttempts, type RouterDeps } from './run-attempts.js';

export class ChatService {
  constructor(
    private readonly deps: RouterDeps,
    private readonly maxDocumentBytes: number,
  ) {}

  async chat(call: ChatCall): Promise<ChatOutcome> {
    checkDocumentLimits(call.request, this.maxDocumentBytes);
    const startedAt = performance.now();
    const metered: MeteredCall & { signal: AbortSignal } = {
      key: call.key,
      surface: call.surface,
      requestId: call.requestId,
      model: call.request.model,
      operation: 'chat',
      stream: call.request.stream,
      signal: call.signal,
    };
    const record = (route: RouteInfo, outcome: string, usage?: Usage) => recordUsage(this.deps.recorder, this.deps.catalog, metered, route, startedAt, outcome, usage);

    return runAttempts(this.deps, metered, startedAt, async (channel, attempt, route): Promise<ChatOutcome> => {
      const chat = channel.provider.chat;
      if (!chat) throw modelNotFound(call.request.model);
      if (call.raw && chat.passthrough && channel.provider.dialect === call.raw.dialect) {
        route.passthrough = true;
        const response = await chat.passthrough(call.raw, attempt);
        response.usage.then(
          (usage) => void record(route, 'ok', usage),
          () => void record(route, 'upstream'),
        );
        return { kind: 'passthrough', response, route };
      }
      if (call.request.stream) {
        const events = await chat.chatStream(call.request, attempt);
        return { kind: 'stream', events: meter(call.request.model, events, (outcome, usage) => record(route, outcome, usage)), route };
      }
      const response = await chat.chat(call.request, attempt);
      response.model = call.request.model;
      // The row is journaled before the answer leaves: a crash cannot lose the usage of an answered call.
      await record(route, 'ok', response.usage);
      return { kind: 'response', response, route };
    });
  }
}

/**
 * Relays stream events, naming the public model, and reports how the stream ended. The row of a
 * finished stream is journaled before its `finish` event is relayed, so the client never sees
 * the end of a stream whose usage a crash could lose.
 */
async function* meter(model: string, events: AsyncIterable<ChatEvent>, done: (outcome: string, usage?: Usage) => Promise<void>): AsyncGenerator<ChatEvent> {
  // What the upstream reported so far (start and usage events): recorded even when the stream is cut.
  let usage: Usage | undefined;
  let outcome = 'client_closed';
  let recorded = false;
  try {
    for await (const event of events) {
      if (event.type === 'start') {
        event.model = model;
        if (event.usage) usage = mergeUsage(usage ?? { inputTokens: 0, outputTokens: 0 }, event.usage);
      } else if (event.type === 'usage') usage = mergeUsage(usage ?? { inputTokens: 0, outputTokens: 0 }, event.usage);
      else if (event.type === 'finish') {
        usage = event.usage;
        outcome = 'ok';
        if (!recorded) {
          recorded = true;
          await done(outcome, usage);
        }
      } else if (event.type === 'error') outcome = event.error.kind;
      yield event;
    }
  } catch (error) {
    const gatewayError = toGatewayError(error);
    outcome = gatewayError.code === 'client_closed' ? 'client_closed' : gatewayError.kind;
    throw error;
  } finally {
    if (!recorded) await done(outcome, usage);
  }
}
