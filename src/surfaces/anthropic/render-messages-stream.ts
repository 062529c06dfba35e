/**
 * The canonical ChatEvent stream → Anthropic Messages SSE frames, in the order the API
 * sends them: message_start, per block content_block_start / _delta… / _stop, then
 * message_delta and message_stop. A failure once frames are out becomes `event: error`.
 * Upstreams of other dialects report input tokens only at the end: message_start then carries
 * the local estimate (what count_tokens answers), and message_delta the upstream's numbers.
 */
import type { ChatEvent } from '../../core/chat.js';
import { GatewayError, toGatewayError } from '../../core/errors.js';
import { prefixedId } from '../../core/ids.js';
import { sseEvent } from '../../core/sse.js';
import { mergeUsage, type Usage } from '../../core/usage.js';
import { toAnthropicInputUsage } from '../../core/wire/anthropic-usage.js';
import { anthropicMessageId } from './anthropic-message-id.js';
import { anthropicErrorType } from './render-error.js';
import { toAnthropicStopReason } from './to-anthropic-stop-reason.js';

type OpenBlock = { kind: 'text' } | { kind: 'thinking'; signed: boolean } | { kind: 'tool'; toolIndex: number };

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
  private open: OpenBlock | undefined;
  private nextIndex = 0;
  /** Anthropic block index of each canonical tool-call index. */
  private readonly toolBlocks = new Map<number, number>();

  constructor(
    private readonly model: string,
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
    switch (event.type) {
      case 'text_delta':
        // OpenAI-style upstreams open with an empty delta; it must not open an empty block.
        if (event.text.length === 0) break;
        if (this.open?.kind !== 'text') this.openBlock({ kind: 'text' }, { type: 'text', text: '' }, out);
        out.push(frame('content_block_delta', { index: this.nextIndex - 1, delta: { type: 'text_delta', text: event.text } }));
        break;
      case 'thinking_delta':
        this.thinking(event.text, event.signature, out);
        break;
      case 'tool_call_start':
        this.toolBlocks.set(event.index, this.nextIndex);
        this.openBlock({ kind: 'tool', toolIndex: event.index }, { type: 'tool_use', id: event.id, name: event.name, input: {} }, out);
        break;
      case 'tool_call_delta': {
        const index = this.toolBlocks.get(event.index);
        if (index === undefined || event.argumentsDelta.length === 0) break;
        out.push(frame('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: event.argumentsDelta } }));
        break;
      }
      case 'usage':
        mergeUsage(this.usage, event.usage);
        break;
      case 'finish':
        mergeUsage(this.usage, event.usage);
        this.closeBlock(out);
        this.finish(event.finishReason, event.stopSequence ?? null, out);
        return 'done';
    }
    return 'more';
  }

  private start(id: string, model: string, usage: Partial<Usage> | undefined, out: string[]): void {
    this.started = true;
    mergeUsage(this.usage, usage);
    this.inputKnownAtStart = usage?.inputTokens !== undefined;
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

  private thinking(text: string, signature: string | undefined, out: string[]): void {
    const open = this.open;
    if (open?.kind !== 'thinking' || open.signed) {
      this.openBlock({ kind: 'thinking', signed: false }, { type: 'thinking', thinking: '', signature: '' }, out);
    }
    const index = this.nextIndex - 1;
    if (text.length > 0) out.push(frame('content_block_delta', { index, delta: { type: 'thinking_delta', thinking: text } }));
    if (signature !== undefined) {
      out.push(frame('content_block_delta', { index, delta: { type: 'signature_delta', signature } }));
      (this.open as { signed: boolean }).signed = true;
    }
  }

  private openBlock(block: OpenBlock, contentBlock: Record<string, unknown>, out: string[]): void {
    this.closeBlock(out);
    this.open = block;
    out.push(frame('content_block_start', { index: this.nextIndex, content_block: contentBlock }));
    this.nextIndex++;
  }

  private closeBlock(out: string[]): void {
    if (!this.open) return;
    out.push(frame('content_block_stop', { index: this.nextIndex - 1 }));
    this.open = undefined;
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
    yield anthropicStreamErrorFrame(toGatewayError(error));
  }
}
