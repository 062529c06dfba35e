/**
 * The canonical ChatResponse → an Anthropic Messages API response body.
 */
import type { ChatResponse } from '../../core/chat.js';
import type { AnthropicResponseBlock } from '../../core/wire/anthropic-types.js';
import { toAnthropicUsage, type RenderedInputUsage } from '../../core/wire/anthropic-usage.js';
import { anthropicMessageId } from './anthropic-message-id.js';
import { anthropicToolUseId } from './anthropic-tool-use-id.js';
import { parseToolInput } from './parse-tool-input.js';
import { toAnthropicStopReason } from './to-anthropic-stop-reason.js';

interface RenderedAnthropicMessage {
  id: string;
  type: 'message';
  role: 'assistant';
  model: string;
  content: AnthropicResponseBlock[];
  stop_reason: string;
  stop_sequence: string | null;
  usage: RenderedInputUsage & { output_tokens: number };
}

export function renderAnthropicMessagesResponse(response: ChatResponse): RenderedAnthropicMessage {
  const content: AnthropicResponseBlock[] = [];
  for (const part of response.content) {
    if (part.type === 'text') content.push({ type: 'text', text: part.text });
    else if (part.type === 'tool_call')
      content.push({ type: 'tool_use', id: anthropicToolUseId(part.id), name: part.name, input: parseToolInput(part.arguments) });
    else if (part.redacted !== undefined) content.push({ type: 'redacted_thinking', data: part.redacted });
    else content.push({ type: 'thinking', thinking: part.text, signature: part.signature ?? '' });
  }
  const stopReason = toAnthropicStopReason(response.finishReason);
  return {
    id: anthropicMessageId(response.id),
    type: 'message',
    role: 'assistant',
    model: response.model,
    content,
    stop_reason: stopReason,
    stop_sequence: stopReason === 'stop_sequence' ? (response.stopSequence ?? null) : null,
    usage: toAnthropicUsage(response.usage),
  };
}
