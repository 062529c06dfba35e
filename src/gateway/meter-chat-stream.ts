/**
 * Relays a translated chat stream and ends its call exactly once: settled at `finish`, failed
 * at an `error` event or a thrown error, and `client_closed` when the client stops reading.
 * An abandoned stream is billed for what was produced: the upstream's usage when it came,
 * otherwise the streamed text counted locally (and the request's input estimated).
 */
import type { ChatEvent } from '../core/chat.js';
import { toGatewayError } from '../core/errors.js';
import { PRODUCED_TEXT_LIMIT, TextCollector } from '../core/text-collector.js';
import { loadTokenizer } from '../core/tokenizer.js';
import { type Usage, mergeUsage } from '../core/usage.js';
import { usageOfCutAnswer } from './usage-of-cut-answer.js';
import type { Call } from './call-lifecycle.js';

interface MeterOptions {
  /** The public model id the client asked for; `start` events name it. */
  model: string;
  /** A local estimate of the request's input tokens (called once the tokenizer is loaded). */
  estimateInput(): number;
}

export function meterChatStream(events: AsyncIterable<ChatEvent>, call: Call, options: MeterOptions): AsyncGenerator<ChatEvent> {
  // A client that leaves before the first event is read never starts the generator (its
  // `finally` never runs): the abort itself ends such a call, billed for its input.
  const state = { started: false };
  const { signal } = call.subject;
  const onAbort = (): void => {
    setImmediate(() => {
      if (state.started || call.isEnded) return;
      void loadTokenizer()
        .then(() => ({ inputTokens: options.estimateInput(), outputTokens: 0 }))
        .catch(() => undefined)
        .then((usage) => call.finish(call.abortOutcome() ?? 'client_closed', usage));
    });
  };
  signal.addEventListener('abort', onAbort, { once: true });
  return relay(events, call, options, state, () => signal.removeEventListener('abort', onAbort));
}

async function* relay(
  events: AsyncIterable<ChatEvent>,
  call: Call,
  options: MeterOptions,
  state: { started: boolean },
  done: () => void,
): AsyncGenerator<ChatEvent> {
  state.started = true;
  const reported: Partial<Usage> = {};
  const produced = new TextCollector(PRODUCED_TEXT_LIMIT);
  const note = (update: Partial<Usage> | undefined): void => {
    if (update) mergeUsage(reported as Usage, update);
  };
  const partialUsage = (): Promise<Usage> => usageOfCutAnswer({ reported, producedText: produced.text(), estimateInput: options.estimateInput });
  let ending = false;
  const isOpen = (): boolean => !ending && !call.isEnded;
  const endAbandoned = (outcome: 'client_closed' | 'error', error?: unknown): void => {
    ending = true;
    // The events come from the upstream's stream: what ends it is the upstream's (its mid-stream error event), as in the attempt loop.
    const failure = outcome === 'error' ? toGatewayError(error) : undefined;
    failure?.classifyAsUpstream();
    void partialUsage()
      .catch(() => ({ inputTokens: 0, outputTokens: 0, ...reported }))
      .then((usage) => (outcome === 'client_closed' ? call.finish(call.abortOutcome() ?? 'client_closed', usage) : call.fail(failure, usage)));
  };
  try {
    for await (const event of events) {
      switch (event.type) {
        case 'start':
          event.model = options.model;
          note(event.usage);
          break;
        case 'text_delta':
        case 'thinking_delta':
          if (call.firstTokenAt === undefined) call.markFirstToken();
          produced.add(event.text);
          break;
        case 'tool_call_delta':
          if (call.firstTokenAt === undefined) call.markFirstToken();
          produced.add(event.argumentsDelta);
          break;
        case 'usage':
          note(event.usage);
          break;
        case 'finish':
          // Journaled before the client sees the end, so a crash after it cannot lose the usage.
          await call.settle(event.usage);
          break;
        case 'error':
          if (isOpen()) endAbandoned('error', event.error);
          break;
      }
      yield event;
    }
  } catch (error) {
    if (isOpen()) endAbandoned(call.abortOutcome() ? 'client_closed' : 'error', error);
    throw error;
  } finally {
    done();
    if (isOpen()) endAbandoned('client_closed');
  }
}
