/**
 * An Anthropic Messages API response → the canonical ChatResponse.
 */
import type { ChatResponse } from '../../core/chat.js';
import { GatewayError } from '../../core/errors.js';
import { nowSeconds } from '../../core/ids.js';
import type { AnthropicMessagesResponse } from '../../core/wire/anthropic-types.js';
import { fromAnthropicUsage } from '../../core/wire/anthropic-usage.js';
import { mapAnthropicStopReason } from './map-anthropic-stop-reason.js';

export function fromAnthropicResponse(body: AnthropicMessagesResponse): ChatResponse {
  if (!body || typeof body !== 'object' || !Array.isArray(body.content)) {
    throw new GatewayError('upstream', 'anthropic upstream answered without a content array', { retryable: true });
  }
  const content: ChatResponse['content'] = [];
  for (const block of body.content) {
    switch (block.type) {
      case 'text':
        content.push({ type: 'text', text: block.text });
        break;
      case 'tool_use':
        content.push({ type: 'tool_call', id: block.id, name: block.name, arguments: JSON.stringify(block.input ?? {}) });
        break;
      case 'thinking':
        content.push({ type: 'thinking', text: block.thinking, signature: block.signature });
        break;
      case 'redacted_thinking':
        content.push({ type: 'thinking', text: '', redacted: block.data });
        break;
      // Server-tool blocks (web search results and the like) have no canonical form.
    }
  }
  return {
    id: body.id,
    model: body.model,
    created: nowSeconds(),
    content,
    finishReason: mapAnthropicStopReason(body.stop_reason),
    stopSequence: body.stop_sequence ?? null,
    usage: fromAnthropicUsage(body.usage ?? { input_tokens: 0, output_tokens: 0 }),
  };
}
