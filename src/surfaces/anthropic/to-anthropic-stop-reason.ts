import type { FinishReason } from '../../core/chat.js';
import type { AnthropicStopReason } from '../../core/wire/anthropic-types.js';

/** The canonical finish reason as an Anthropic `stop_reason`. */
export function toAnthropicStopReason(reason: FinishReason): AnthropicStopReason {
  switch (reason) {
    case 'stop':
      return 'end_turn';
    case 'stop_sequence':
      return 'stop_sequence';
    case 'length':
      return 'max_tokens';
    case 'tool_calls':
      return 'tool_use';
    case 'refusal':
    case 'content_filter':
      return 'refusal';
    case 'pause':
      return 'pause_turn';
    default:
      return 'end_turn';
  }
}
