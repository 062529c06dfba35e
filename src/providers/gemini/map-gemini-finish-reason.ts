/**
 * Gemini `finishReason` → canonical. Gemini ends a function-calling turn with `STOP`, so a
 * turn that produced calls maps to `tool_calls`.
 */
import type { FinishReason } from '../../core/chat.js';

export function mapGeminiFinishReason(reason: string | undefined, hasToolCalls: boolean): FinishReason {
  switch (reason) {
    case undefined:
    case 'STOP':
    case 'FINISH_REASON_UNSPECIFIED':
      return hasToolCalls ? 'tool_calls' : 'stop';
    case 'MAX_TOKENS':
      return 'length';
    case 'SAFETY':
    case 'RECITATION':
    case 'BLOCKLIST':
    case 'PROHIBITED_CONTENT':
    case 'SPII':
    case 'IMAGE_SAFETY':
      return 'content_filter';
    default:
      return 'other';
  }
}
