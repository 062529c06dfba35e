/**
 * The canonical ChatEvent stream → Anthropic Messages SSE frames, in the order the API
 * sends them: message_start, per block content_block_start / _delta… / _stop, then
 * message_delta and message_stop. A failure once frames are out becomes `event: error`.
 */
import type { ChatEvent } from '../../core/chat.js';
import { GatewayError, toGatewayError } from '../../core/errors.js';
import { prefixedId } from '../../core/ids.js';
import { sseEvent } from '../../core/sse.js';
import { mergeUsage, type Usage } from '../../core/usage.js';
import { toAnthropicInputUsage } from '../../core/wire/anthropic-usage.js';
import { anthropicMessageId } from './anthropic-message-id.js';
import { anthropicErrorType } from './render-error.js';
import { ContentBlockSequencer } from './sequence-content-blocks.js';
import { toAnthropicStopReason } from './to-anthropic-stop-reason.js';

function frame(type: string, payload: Record<string, unknown>): string {
  return sseEvent(type, JSON.stringify({ type, ...payload }));
}

export function anthropicStreamErrorFrame(error: GatewayError): string {
  return frame('error', { error: { type: anthropicErrorType(error).type, message: error.message } });
}

/** Renders one response's events; `model` names the message when no `start` event came first. */
class MessageStreamRenderer {
  private started = false;
  private inputKnownAtStart = false;
  private readonly usage: Usage = { inputTokens: 0, outputTokens: 0 };
  private out: string[] = [];
  /** Content blocks in strict order (see sequence-content-blocks.ts). */
  private readonly blocks = new ContentBlockSequencer((type, payload) => this.out.push(frame(type, payload)));

  constructor(
    private readonly model: string,
    /** A local count of the request's input, for `message_start` when the upstream gives none before the end. */
    private readonly estimateInput?: () => number,
  ) {}

  /** The frames for one event (usually one or two). */
  render(event: ChatEvent, out: string[]): 'more' | 'done' {
    if (event.type === 'error') {
      out.push(anthropicStreamErrorFrame(event.error));
      return 'done';
    }
    if (event.type === 'start') {
      this.start(event.id, event.model, event.usage, out);
      return 'more';
    }
    if (!this.started) this.start(prefixedId('msg_'), this.model, undefined, out);
    this.out = out;
    switch (event.type) {
      case 'text_delta':
        this.blocks.text(event.text);
        break;
      case 'thinking_delta':
        this.blocks.thinking(event.text, event.signature);
        break;
      case 'tool_call_start':
        this.blocks.toolStart(event.index, event.id, event.name);
        break;
      case 'tool_call_delta':
        this.blocks.toolDelta(event.index, event.argumentsDelta);
        break;
      case 'usage':
        mergeUsage(this.usage, event.usage);
        break;
      case 'finish':
        mergeUsage(this.usage, event.usage);
        this.blocks.finish();
        this.finish(event.finishReason, event.stopSequence ?? null, out);
        return 'done';
    }
    return 'more';
  }

  private start(id: string, model: string, usage: Partial<Usage> | undefined, out: string[]): void {
    this.started = true;
    mergeUsage(this.usage, usage);
    this.inputKnownAtStart = usage?.inputTokens !== undefined;
    // Anthropic states the input at message_start; an upstream that says it only at the end gets the local count here.
    const startUsage: Usage = this.inputKnownAtStart ? this.usage : { ...this.usage, inputTokens: this.localInputCount() };
    out.push(
      frame('message_start', {
        message: {
          id: anthropicMessageId(id),
          type: 'message',
          role: 'assistant',
          model,
          content: [],
          stop_reason: null,
          stop_sequence: null,
          usage: { ...toAnthropicInputUsage(startUsage), output_tokens: this.usage.outputTokens },
        },
      }),
    );
  }

  private localInputCount(): number {
    try {
      return this.estimateInput?.() ?? 0;
    } catch {
      return 0;
    }
  }

  private finish(reason: Parameters<typeof toAnthropicStopReason>[0], stopSequence: string | null, out: string[]): void {
    const stopReason = toAnthropicStopReason(reason);
    const usage: Record<string, number> = { output_tokens: this.usage.outputTokens };
    // Input usage the client has not seen yet (the upstream reported it only at the end).
    if (!this.inputKnownAtStart) Object.assign(usage, toAnthropicInputUsage(this.usage));
    out.push(
      frame('message_delta', {
        delta: { stop_reason: stopReason, stop_sequence: stopReason === 'stop_sequence' ? stopSequence : null },
        usage,
      }),
    );
    out.push(frame('message_stop', {}));
  }
}

/**
 * Anthropic SSE frames for a canonical event stream. Never throws: an exception from the
 * events (or a stream that ends without `finish`) is rendered as an `error` event.
 */
export async function* renderAnthropicMessagesStream(events: AsyncIterable<ChatEvent>, model: string, estimateInput?: () => number): AsyncGenerator<string> {
  const renderer = new MessageStreamRenderer(model, estimateInput);
  const out: string[] = [];
  try {
    for await (const event of events) {
      const state = renderer.render(event, out);
      if (out.length > 0) {
        yield out.join('');
        out.length = 0;
      }
      if (state === 'done') return;
    }
    yield anthropicStreamErrorFrame(new GatewayError('upstream', 'the upstream stream ended before the message was complete'));
  } catch (error) {
    // Frames of the same event rendered before the failure still go out, in order.
    yield out.join('') + anthropicStreamErrorFrame(toGatewayError(error));
  }
}
