/** Canonical finish reason → Gemini `finishReason` (never `FINISH_REASON_UNSPECIFIED`). */
import type { FinishReason } from '../../core/chat.js';
import type { GeminiFinishReason } from '../../core/wire/gemini-types.js';

export function toGeminiFinishReason(reason: FinishReason): GeminiFinishReason {
  switch (reason) {
    // Gemini ends a function-calling turn with STOP too.
    case 'stop':
    case 'stop_sequence':
    case 'tool_calls':
      return 'STOP';
    case 'length':
      return 'MAX_TOKENS';
    case 'content_filter':
    case 'refusal':
      return 'SAFETY';
    default:
      return 'OTHER';
  }
}
