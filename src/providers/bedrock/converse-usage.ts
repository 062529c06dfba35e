/**
 * Converse's usage and stop reason in canonical form. Converse's `inputTokens` leaves out the
 * tokens read from or written to the prompt cache (`totalTokens` adds them); the canonical
 * `inputTokens` counts them all.
 */
import type { FinishReason } from '../../core/chat.js';
import type { Usage } from '../../core/usage.js';

export interface ConverseUsage {
  inputTokens?: number;
  outputTokens?: number;
  cacheReadInputTokens?: number;
  cacheWriteInputTokens?: number;
}

function count(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : undefined;
}

export function fromConverseUsage(usage: ConverseUsage | undefined): Usage {
  const read = count(usage?.cacheReadInputTokens);
  const write = count(usage?.cacheWriteInputTokens);
  const result: Usage = { inputTokens: (count(usage?.inputTokens) ?? 0) + (read ?? 0) + (write ?? 0), outputTokens: count(usage?.outputTokens) ?? 0 };
  if (read !== undefined) result.cacheReadTokens = read;
  if (write !== undefined) result.cacheWriteTokens = write;
  return result;
}

export function mapConverseStopReason(reason: unknown): FinishReason {
  switch (reason) {
    case 'end_turn':
      return 'stop';
    case 'max_tokens':
    case 'model_context_window_exceeded':
      return 'length';
    case 'stop_sequence':
      return 'stop_sequence';
    case 'tool_use':
      return 'tool_calls';
    case 'guardrail_intervened':
    case 'content_filtered':
      return 'content_filter';
    default:
      return 'other';
  }
}
