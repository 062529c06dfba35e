import type { FinishReason } from '../../core/chat.js';

/** An Anthropic `stop_reason` as the canonical finish reason. */
export function mapAnthropicStopReason(reason: string | null | undefined): FinishReason {
  switch (reason) {
    case 'end_turn':
    case null:
    case undefined:
      return 'stop';
    case 'max_tokens':
    case 'model_context_window_exceeded':
      return 'length';
    case 'stop_sequence':
      return 'stop_sequence';
    case 'tool_use':
      return 'tool_calls';
    case 'pause_turn':
      return 'pause';
    case 'refusal':
      return 'refusal';
    default:
      return 'other';
  }
}
