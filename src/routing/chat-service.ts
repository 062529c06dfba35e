/**
 * Runs one chat call through the shared attempt loop. Same-dialect calls pass through
 * untranslated; others go through the canonical form. Usage is queued for the ledger when
 * the answer is complete (for streams: when the stream ends).
 */
import type { ChatEvent } from '../core/chat.js';
import { toGatewayError } from '../core/errors.js';
import type { Usage } from '../core/usage.js';
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
          (tap) => record(route, 'ok', tap.usage),
          () => record(route, 'upstream'),
        );
        return { kind: 'passthrough', response, route };
      }
      if (call.request.stream) {
        const events = await chat.chatStream(call.request, attempt);
        return { kind: 'stream', events: meter(call.request.model, events, (outcome, usage) => record(route, outcome, usage)), route };
      }
      const response = await chat.chat(call.request, attempt);
      response.model = call.request.model;
      record(route, 'ok', response.usage);
      return { kind: 'response', response, route };
    });
  }
}

/** Relays stream events, naming the public model, and reports how the stream ended. */
async function* meter(model: string, events: AsyncIterable<ChatEvent>, done: (outcome: string, usage?: Usage) => void): AsyncGenerator<ChatEvent> {
  let usage: Usage | undefined;
  let outcome = 'client_closed';
  try {
    for await (const event of events) {
      if (event.type === 'start') event.model = model;
      else if (event.type === 'finish') {
        usage = event.usage;
        outcome = 'ok';
      } else if (event.type === 'error') outcome = event.error.kind;
      yield event;
    }
  } catch (error) {
    outcome = toGatewayError(error).kind;
    throw error;
  } finally {
    done(outcome, usage);
  }
}
