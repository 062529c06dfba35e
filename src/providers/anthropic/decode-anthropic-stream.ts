/**
 * Anthropic Messages SSE → canonical ChatEvents. Tool-use blocks are numbered 0, 1, … as
 * canonical tool-call indices, whatever their block index.
 */
import type { ChatEvent, FinishReason } from '../../core/chat.js';
import { GatewayError } from '../../core/errors.js';
import { nowSeconds } from '../../core/ids.js';
import { readSse } from '../../core/sse.js';
import type { Usage } from '../../core/usage.js';
import type { AnthropicStreamEvent } from '../../core/wire/anthropic-types.js';
import { fromAnthropicInputUsage, type AnthropicInputUsage } from '../../core/wire/anthropic-usage.js';
import { mapAnthropicStreamError } from './map-anthropic-error.js';
import { mapAnthropicStopReason } from './map-anthropic-stop-reason.js';

function parse(data: string): AnthropicStreamEvent {
  try {
    return JSON.parse(data) as AnthropicStreamEvent;
  } catch {
    throw new GatewayError('upstream', `anthropic upstream sent a malformed stream event: ${data.slice(0, 200)}`);
  }
}

export async function* decodeAnthropicStream(body: AsyncIterable<Uint8Array | string>): AsyncGenerator<ChatEvent> {
  const input: AnthropicInputUsage = {};
  let outputTokens = 0;
  let finishReason: FinishReason = 'stop';
  let stopSequence: string | null = null;
  /** Canonical tool-call index by Anthropic block index. */
  const toolIndexByBlock = new Map<number, number>();
  const usage = (): Usage => ({ ...fromAnthropicInputUsage(input), outputTokens });

  for await (const sse of readSse(body)) {
    const name = sse.event;
    if (name === 'ping' || sse.data.length === 0) continue;
    if (name === 'error') {
      yield { type: 'error', error: mapAnthropicStreamError(sse.data) };
      return;
    }
    const event = parse(sse.data);
    switch (event.type) {
      case 'message_start': {
        const wire = event.message.usage ?? { input_tokens: 0, output_tokens: 0 };
        Object.assign(input, {
          input_tokens: wire.input_tokens,
          cache_creation_input_tokens: wire.cache_creation_input_tokens,
          cache_read_input_tokens: wire.cache_read_input_tokens,
        });
        outputTokens = wire.output_tokens ?? 0;
        yield { type: 'start', id: event.message.id, model: event.message.model, created: nowSeconds(), usage: usage() };
        break;
      }
      case 'content_block_start': {
        const block = event.content_block;
        if (block.type === 'text') {
          if (block.text.length > 0) yield { type: 'text_delta', text: block.text };
        } else if (block.type === 'tool_use') {
          const index = toolIndexByBlock.size;
          toolIndexByBlock.set(event.index, index);
          yield { type: 'tool_call_start', index, id: block.id, name: block.name };
          const initial = block.input && typeof block.input === 'object' && Object.keys(block.input).length > 0;
          if (initial) yield { type: 'tool_call_delta', index, argumentsDelta: JSON.stringify(block.input) };
        } else if (block.type === 'thinking') {
          if (block.thinking.length > 0) yield { type: 'thinking_delta', text: block.thinking };
        }
        break;
      }
      case 'content_block_delta': {
        const delta = event.delta;
        if (delta.type === 'text_delta') {
          yield { type: 'text_delta', text: delta.text };
        } else if (delta.type === 'input_json_delta') {
          const index = toolIndexByBlock.get(event.index);
          if (index !== undefined && delta.partial_json.length > 0) yield { type: 'tool_call_delta', index, argumentsDelta: delta.partial_json };
        } else if (delta.type === 'thinking_delta') {
          yield { type: 'thinking_delta', text: delta.thinking };
        } else if (delta.type === 'signature_delta') {
          yield { type: 'thinking_delta', text: '', signature: delta.signature };
        }
        break;
      }
      case 'message_delta': {
        finishReason = mapAnthropicStopReason(event.delta?.stop_reason);
        stopSequence = event.delta?.stop_sequence ?? null;
        const wire = event.usage ?? { output_tokens: outputTokens };
        if (typeof wire.output_tokens === 'number') outputTokens = wire.output_tokens;
        // Whole-message totals: present ones replace what message_start said.
        if (typeof wire.input_tokens === 'number') input.input_tokens = wire.input_tokens;
        if (typeof wire.cache_creation_input_tokens === 'number') input.cache_creation_input_tokens = wire.cache_creation_input_tokens;
        if (typeof wire.cache_read_input_tokens === 'number') input.cache_read_input_tokens = wire.cache_read_input_tokens;
        break;
      }
      case 'message_stop':
        yield { type: 'finish', finishReason, stopSequence, usage: usage() };
        return;
    }
  }
  yield { type: 'error', error: new GatewayError('upstream', 'anthropic upstream stream ended before message_stop', { retryable: true }) };
}
